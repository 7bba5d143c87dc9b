/*
 * The classic "n+1 kernels" example, made concrete.
 *
 * Each work-item reads one int and one float, then takes one of three
 * expensive paths:
 *   someCondition && someOtherCondition  -> out = expensiveCalc0   (leaf 0)
 *   someCondition && !someOtherCondition -> out = expensiveCalc1   (leaf 1)
 *   !someCondition                       -> out += expensiveCalc2  (leaf 2)
 * On a GPU, a warp whose items mix paths runs all of them one after another.
 */
#ifndef ITERS
#define ITERS 64
#endif

static bool someCondition(int thisInt, float thisFloat)
{
    return (thisInt % 3) != 2 || thisFloat < 0.0f;
}

static bool someOtherCondition(int thisInt)
{
    return (thisInt % 3) == 0;
}

static float expensiveCalc0(int thisInt, float thisFloat)
{
    float a = thisFloat;
    for (int k = 0; k < ITERS; k++)
        a = sin(a) * 1.0001f + cos((float)thisInt * a) * 0.5f;
    return a;
}

static float expensiveCalc1(int thisInt, float thisFloat)
{
    float a = thisFloat;
    for (int k = 0; k < ITERS; k++)
        a = exp(-fabs(a)) * 0.9f + log(1.0f + fabs(a + (float)thisInt));
    return a;
}

static float expensiveCalc2(int thisInt, float thisFloat)
{
    float a = thisFloat;
    for (int k = 0; k < ITERS; k++)
        a = sqrt(fabs(a) + 1.0f) * 0.7f + tanh(a * 0.1f + (float)(thisInt & 7));
    return a;
}

__kernel void oneKernel(__global const int *intArray,
                        __global const float *floatArray,
                        __global float *out)
{
    int gid = get_global_id(0);
    int thisInt = intArray[gid];
    float thisFloat = floatArray[gid];
    if (someCondition(thisInt, thisFloat)) {
        if (someOtherCondition(thisInt)) {
            out[gid] = expensiveCalc0(thisInt, thisFloat);
        } else {
            out[gid] = expensiveCalc1(thisInt, thisFloat);
        }
    } else {
        out[gid] += expensiveCalc2(thisInt, thisFloat);
    }
}
