// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>

namespace plumb {

// CRC-32C (Castagnoli), the checksum of TFRecord framing. Uses the SSE4.2 crc32 instruction where
// the CPU has it, else a slicing-by-8 table.
[[nodiscard]] uint32_t crc32c(const void *data, size_t size, uint32_t crc = 0);
// The table version alone, whatever the CPU (for tests: both must agree).
[[nodiscard]] uint32_t crc32cPortable(const void *data, size_t size, uint32_t crc = 0);

// TFRecord stores CRCs masked (rotated and offset) so that a CRC of data that itself holds CRCs
// stays well distributed.
[[nodiscard]] constexpr uint32_t maskCrc32c(uint32_t crc)
{
    return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

} // namespace plumb
