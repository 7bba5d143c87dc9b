/* vendor.h - guarded; kernel.cl and inc/platform.cl both include it (hashcat's shape) */
#ifndef VENDOR_H
#define VENDOR_H
#define SCALE 3
static inline int scaled(int v) { return v * SCALE; }
#endif
