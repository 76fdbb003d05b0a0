/*
 * units.h - sizes in bytes as people write them: "2 GiB", "700 MiB",
 * "1.5G" (read from profiles and rule files) and written back for reports.
 */
#ifndef GGUFLINT_UNITS_H
#define GGUFLINT_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * parse_size: "2 GiB", "700 MiB", "1.5G", "123456" (bytes). K/M/G/T,
 * KiB/MiB/GiB/TiB and KB/MB/GB/TB are all binary (2^10 ...), as RAM is
 * sold; a fraction is truncated to whole bytes. Returns 0 with *out set,
 * or -1 (*out untouched) for anything else or a size over 2^64 - 1.
 */
int parse_size(const char *s, uint64_t *out);

/*
 * format_size: "1.3 GiB", "700 MiB", "512 B" into buf (bufsz >= 32 bytes
 * holds any size); returns buf.
 */
const char *format_size(uint64_t bytes, char *buf, size_t bufsz);

#endif
