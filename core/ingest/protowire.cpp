// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/protowire.h"

namespace plumb {

// Out of line so that the inline reads stay small: malformed input is the rare path.
void ProtoWire::raise(int64_t offset, const char *what)
{
    throw Error { offset, what };
}

} // namespace plumb
