#pragma once
/* once.h - kept to one copy by #pragma once, included twice */
static inline int bias(int v) { return v ^ 5; }
