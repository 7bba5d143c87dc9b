#include "vendor.h"
#include "once.h"
static inline int pick(int v) { return scaled(v) + bias(v); }
