// RUN: nplus1gen %s --validate --global 4096 -q
// RUN: nplus1gen %s --validate --global 4096 -q -DATNM -DFAST
// EXPECT: match all-leaves
/* Regression (issue 26, item 3; OMEGA's projectorType123.cl): an #if .. #elif
 * group whose arms were all false, with `///// banner` comments on its lines,
 * around a parameter and inside a branch. libclang skips such a group as one
 * block, so the #elif arm looked taken: the guard added an #else with an
 * #error that the safety net then found firing under the very macros the set
 * was cut with (-o exit 3). A block comment that went on past an #ifdef's line
 * swallowed the #error inserted after that line (the guard was lost). */
__kernel void project(__global const float *in,
#if !defined(CT) && defined(ATN) && !defined(ATNM) ///////// PET ATTENUATION CORRECTION /////////
#ifdef USEIMAGES
        __read_only image2d_t atten,
#else
        __global const float *atten,
#endif
#elif !defined(CT) && !defined(ATN) && defined(ATNM) ///////// MEASURED ATTENUATION /////////
        __global const float *atten,
#endif ///////// END ATTENUATION /////////
        __global float *out)
{
    int i = get_global_id(0);
    float v = in[i];
    if (v > 0.5f) {
#if defined(ATN) || defined(ATNM) ///////// ATTENUATION /////////
        v = v * atten[i];
#elif defined(CT) ///////// CT /////////
        v = v - 1.0f;
#endif
#if defined(FAST) && defined(EXACT) ///////// BOTH /////////
        v = v * 2.0f;
#elif defined(FAST) ///////// FAST ONLY /////////
        v = v + 2.0f;
#else ///////// NEITHER /////////
        v = v + 1.0f;
#endif
        out[i] = v;
    } else {
        out[i] = v * v;
#ifdef SLOW /* a banner comment
               that goes on: the #error comes after it */
        out[i] = 0.0f;
#endif
    }
}
