/*
 * shade.cl - a 2-D kernel with a nested decision: three leaves.
 *   bright, even material  -> soften twice               (leaf 0)
 *   bright, odd material   -> a cheap square             (leaf 1)
 *   dark                   -> soften the negated light   (leaf 2)
 * Image rows are `width` floats long; the launch may start at an offset.
 */
#include "common.h"

__kernel void shade(__global const float *light, __global const int *material,
                    __global float *color, int width)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    int i = y * width + x;
    float l = light[i];
    if (l > BRIGHT_LEVEL) {
        if (material[i] % 2 == 0)
            color[i] = soften(soften(l));
        else
            color[i] = l * l;
    } else {
        color[i] = soften(-l);
    }
}
