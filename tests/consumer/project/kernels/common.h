/*
 * common.h - shared by shade.cl and physics.cl. The consumer test edits
 * BRIGHT_LEVEL and rebuilds: the edit must regenerate both drivers (the
 * build knows this header through nplus1gen's depfile) and move work-items
 * between shade's leaves.
 */
#ifndef COMMON_H
#define COMMON_H

#define BRIGHT_LEVEL 0.25f /* shade: light above this is bright */
#define FLOOR_LEVEL 0.125f /* physics: where falling bodies bounce */
#define STEPS 64           /* iterations of the expensive paths */

/* An expensive, smooth function of x: a stand-in for real shading work. */
static float soften(float x)
{
    float a = x;
    for (int k = 0; k < STEPS; k++)
        a = a * 0.9f + sin(a + (float)k * 0.01f) * 0.1f;
    return a;
}

#endif
