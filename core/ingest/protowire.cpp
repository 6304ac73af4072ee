// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/protowire.h"

namespace plumb {

// Out of line so that the inline reads stay small: malformed input is the rare path.
void ProtoWire::fail(const char *what) const
{
    throw Error { fieldOffset(), what };
}

} // namespace plumb
