// SPDX-License-Identifier: GPL-3.0-or-later
#include "chrometrace/traceevent.h"

#include "chrometrace/jsonfragments.h"

namespace plumb::chrometrace {

namespace od = simdjson::ondemand;

namespace {

// A JSON number without a fraction or exponent (a plain loop: string_view::find_first_of calls memchr
// once per byte).
bool isIntegerText(std::string_view raw)
{
    for (const char c : raw) {
        if (c == '.' || c == 'e' || c == 'E') {
            return false;
        }
    }
    return true;
}

} // namespace

bool TraceEvent::parse(od::object obj)
{
    TraceEvent &e = *this;
    e.reset();
    auto labelOf = [](od::value v, Label &out) -> bool {
        od::json_type t;
        if (v.type().get(t)) {
            return false;
        }
        if (t == od::json_type::string) {
            std::string_view s;
            if (v.get_string().get(s)) {
                return false;
            }
            out.text = s;
        } else {
            std::string_view raw;
            raw = v.raw_json_token();
            out.text = trim(raw);
        }
        out.present = true;
        return true;
    };
    auto numberText = [](od::value v, std::string_view &out) -> bool {
        od::json_type t;
        if (v.type().get(t)) {
            return false;
        }
        if (t == od::json_type::string) {
            return !v.get_string().get(out);
        }
        out = trim(v.raw_json_token());
        return true;
    };

    for (auto field : obj) {
        std::string_view key;
        if (field.unescaped_key().get(key)) {
            return false;
        }
        od::value v;
        if (field.value().get(v)) {
            return false;
        }
        if (key.empty()) {
            continue;
        }
        switch (key[0]) {
        case 'p':
            if (key == "ph") {
                std::string_view ph;
                if (v.get_string().get(ph)) {
                    return false;
                }
                e.ph = ph.empty() ? '?' : ph[0];
            } else if (key == "pid") {
                if (!labelOf(v, e.pid)) {
                    return false;
                }
            }
            break;
        case 'n':
            if (key == "name" && v.get_string().get(e.name)) {
                return false;
            }
            break;
        case 'c':
            if (key == "cat" && v.get_string().get(e.cat)) {
                return false;
            }
            break;
        case 't':
            if (key == "tid") {
                if (!labelOf(v, e.tid)) {
                    return false;
                }
            } else if (key == "ts") {
                if (!numberText(v, e.ts)) {
                    return false;
                }
                e.hasTs = true;
            }
            break;
        case 'd':
            if (key == "dur") {
                if (!numberText(v, e.dur)) {
                    return false;
                }
                e.hasDur = true;
            }
            break;
        case 'i':
            if (key == "id" || key == "id2") {
                od::json_type t;
                if (v.type().get(t)) {
                    return false;
                }
                if (t == od::json_type::object) {
                    od::object o;
                    if (v.get_object().get(o) || o.raw_json().get(e.idRaw)) {
                        return false;
                    }
                } else {
                    e.idRaw = v.raw_json_token();
                }
                e.idRaw = trim(e.idRaw);
                e.hasId = true;
            }
            break;
        case 'b':
            if (key == "bp") {
                std::string_view bp;
                if (v.get_string().get(bp)) {
                    return false;
                }
                e.bpEnclosing = bp == "e";
            } else if (key == "bind_id") {
                e.idRaw = trim(v.raw_json_token());
                e.hasId = true;
            }
            break;
        case 's':
            if (key == "s") {
                std::string_view s;
                if (v.get_string().get(s)) {
                    return false;
                }
                e.scope = s.empty() ? 't' : s[0];
            }
            break;
        case 'f':
            if (key == "flow_in" || key == "flow_out") {
                bool b = false;
                if (v.get_bool().get(b)) {
                    return false;
                }
                (key == "flow_in" ? e.flowIn : e.flowOut) = b;
            }
            break;
        case 'a':
            if (key == "args") {
                od::object args;
                if (v.get_object().get(args)) {
                    return false;
                }
                for (auto af : args) {
                    ArgField a;
                    if (af.unescaped_key().get(a.key)) {
                        return false;
                    }
                    od::value av;
                    od::json_type t;
                    if (af.value().get(av) || av.type().get(t)) {
                        return false;
                    }
                    switch (t) {
                    case od::json_type::object: {
                        od::object o;
                        if (av.get_object().get(o) || o.raw_json().get(a.raw)) {
                            return false;
                        }
                        a.kind = ArgKind::Container;
                        break;
                    }
                    case od::json_type::array: {
                        od::array o;
                        if (av.get_array().get(o) || o.raw_json().get(a.raw)) {
                            return false;
                        }
                        a.kind = ArgKind::Container;
                        break;
                    }
                    default: {
                        a.raw = trim(av.raw_json_token());
                        if (t == od::json_type::string) {
                            a.kind = ArgKind::String;
                            // raw_json_token does not validate: make sure the string is well formed.
                            std::string_view check;
                            if (av.get_string().get(check)) {
                                return false;
                            }
                        } else if (t == od::json_type::boolean) {
                            a.kind = ArgKind::Bool;
                        } else if (t == od::json_type::null) {
                            a.kind = ArgKind::Null;
                        } else {
                            a.kind = isIntegerText(a.raw) ? ArgKind::Int : ArgKind::Double;
                        }
                    }
                    }
                    e.args.push_back(a);
                }
            }
            break;
        default:
            break;
        }
    }
    return true;
}

} // namespace plumb::chrometrace
