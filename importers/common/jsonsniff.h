// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArrayView>

namespace plumb {

// What the sniff() of a JSON format looks at first: the byte a text starts with after a UTF-8 BOM
// and whitespace ('\0' when the head holds nothing else), and whether the head holds a string (a key
// with its quotes, say) anywhere.
inline char firstJsonByte(QByteArrayView head)
{
    qsizetype i = head.startsWith("\xef\xbb\xbf") ? 3 : 0;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
        ++i;
    return i < head.size() ? head[i] : '\0';
}

inline bool headHas(QByteArrayView head, const char *what)
{
    return head.indexOf(QByteArrayView(what)) >= 0;
}

} // namespace plumb
