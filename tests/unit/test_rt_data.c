/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_rt_data.c - proves the runtime's data semantics: element kinds,
 * deterministic random inputs and their ranges, poison, the buffer diff
 * (ULP boundaries, NaN, signed zeros, infinities, integers bitwise, the
 * report of the first mismatches) and the median. Needs no device.
 *
 * Prints one line per check, "PASS: <sentence>" or "FAIL: <sentence>";
 * exits non-zero when any check fails.
 */
#include "nplus1rt.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"


/* ---- helpers: one-element diffs of raw bit patterns -------------------- */

static float f32_from_bits(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static uint32_t f32_bits(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

static double f64_from_bits(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static size_t diff1_f32(float a, float b, unsigned tol)
{
    return nplus1rt_diff(&a, &b, 1, NPLUS1RT_F32, tol, NULL, 0);
}

static size_t diff1_f64(double a, double b, unsigned tol)
{
    return nplus1rt_diff(&a, &b, 1, NPLUS1RT_F64, tol, NULL, 0);
}

static size_t diff1_f16(uint16_t a, uint16_t b, unsigned tol)
{
    return nplus1rt_diff(&a, &b, 1, NPLUS1RT_F16, tol, NULL, 0);
}

/* ---- element kinds ----------------------------------------------------- */

static void test_elem_kinds(void)
{
    check(nplus1rt_elem_size(NPLUS1RT_I8) == 1 && nplus1rt_elem_size(NPLUS1RT_U16) == 2 &&
          nplus1rt_elem_size(NPLUS1RT_F16) == 2 && nplus1rt_elem_size(NPLUS1RT_I32) == 4 &&
          nplus1rt_elem_size(NPLUS1RT_F32) == 4 && nplus1rt_elem_size(NPLUS1RT_U64) == 8 &&
          nplus1rt_elem_size(NPLUS1RT_F64) == 8,
          "element sizes match the OpenCL C types");
    check(strcmp(nplus1rt_elem_name(NPLUS1RT_I8), "char") == 0 &&
          strcmp(nplus1rt_elem_name(NPLUS1RT_U32), "uint") == 0 &&
          strcmp(nplus1rt_elem_name(NPLUS1RT_U64), "ulong") == 0 &&
          strcmp(nplus1rt_elem_name(NPLUS1RT_F16), "half") == 0 &&
          strcmp(nplus1rt_elem_name(NPLUS1RT_F64), "double") == 0,
          "element names are the OpenCL C spellings");
}

/* ---- random inputs ----------------------------------------------------- */

static void test_rand(void)
{
    uint64_t s = 0;
    uint64_t first = nplus1rt_rand(&s);
    check(first == 0xe220a8397b1dcdafULL, "splitmix64 from state 0 gives the reference first value");
    uint64_t a = 42, b = 42;
    int same = 1;
    for (int i = 0; i < 100; i++)
        same &= nplus1rt_rand(&a) == nplus1rt_rand(&b);
    check(same && a == b, "the generator is a pure function of its state");
}

static void test_fill_determinism(void)
{
    float x[257], y[257], z[257];
    uint64_t sx = 7, sy = 7, sz = 8;
    nplus1rt_fill_random(x, 257, NPLUS1RT_F32, 1, &sx);
    nplus1rt_fill_random(y, 257, NPLUS1RT_F32, 1, &sy);
    nplus1rt_fill_random(z, 257, NPLUS1RT_F32, 1, &sz);
    check(memcmp(x, y, sizeof x) == 0 && sx == sy, "fill_random gives the same bytes for the same seed");
    check(memcmp(x, z, sizeof x) != 0, "fill_random gives different bytes for a different seed");
    uint64_t s = 7;
    for (int i = 0; i < 257; i++)
        nplus1rt_rand(&s);
    check(sx == s, "fill_random draws exactly one value per element");
}

/* Draws n elements of kind e and checks they lie in [lo, hi] and reach both ends. */
static int int_range_ok(nplus1rt_elem e, int signed_range, long long lo, long long hi)
{
    enum { N = 20000 };
    static unsigned char buf[N * 8];
    uint64_t s = 99;
    nplus1rt_fill_random(buf, N, e, signed_range, &s);
    long long min = 0, max = 0;
    for (size_t i = 0; i < N; i++) {
        nplus1rt_mismatch m;
        unsigned char zero[8] = { 0 };
        /* diff against zero reports the value as a double; zero itself is 0 */
        long long v = 0;
        if (nplus1rt_diff(zero, buf + i * nplus1rt_elem_size(e), 1, e, 0, &m, 1))
            v = (long long)m.got;
        if (i == 0 || v < min) min = v;
        if (i == 0 || v > max) max = v;
    }
    return min == lo && max == hi;
}

/*
 * A 16-bit kind's 65536 values are too many to see both ends in a sample:
 * the draws stay in [lo, hi], and each eighth of the range gets some.
 */
static int wide_range_ok(nplus1rt_elem e, long long lo, long long hi)
{
    enum { N = 20000 };
    static unsigned short buf[N];
    uint64_t s = 7;
    unsigned eighths[8] = {0};
    nplus1rt_fill_random(buf, N, e, 0, &s);
    for (size_t i = 0; i < N; i++) {
        long long v = e == NPLUS1RT_I16 ? (long long)(short)buf[i] : (long long)buf[i];
        if (v < lo || v > hi)
            return 0;
        eighths[(v - lo) * 8 / (hi - lo + 1)]++;
    }
    for (int k = 0; k < 8; k++)
        if (eighths[k] < N / 16)
            return 0;
    return 1;
}

static void test_int_ranges(void)
{
    check(int_range_ok(NPLUS1RT_I32, 0, 0, 1023), "random int lies in [0, 1024) and reaches both ends");
    check(int_range_ok(NPLUS1RT_I32, 1, -512, 511), "random signed int lies in [-512, 512) and reaches both ends");
    check(int_range_ok(NPLUS1RT_U32, 1, 0, 1023), "random uint ignores signed_range and lies in [0, 1024)");
    check(int_range_ok(NPLUS1RT_I64, 1, -512, 511), "random long lies in [-512, 512)");
    check(int_range_ok(NPLUS1RT_I64, 0, 0, 1023), "random long lies in [0, 1024) by default");
    check(int_range_ok(NPLUS1RT_I8, 0, -128, 127),
          "random char covers its whole range [-128, 128), negatives included, by default");
    check(int_range_ok(NPLUS1RT_I8, 1, -128, 127), "random signed char covers [-128, 128)");
    check(int_range_ok(NPLUS1RT_U8, 0, 0, 255), "random uchar covers its whole range [0, 256)");
    check(wide_range_ok(NPLUS1RT_I16, -32768, 32767),
          "random short covers its whole range [-32768, 32768), negatives included, by default");
    check(wide_range_ok(NPLUS1RT_U16, 0, 65535), "random ushort covers its whole range [0, 65536)");
}

static int f32_range_ok(int signed_range)
{
    enum { N = 20000 };
    static float buf[N];
    uint64_t s = 5;
    nplus1rt_fill_random(buf, N, NPLUS1RT_F32, signed_range, &s);
    float lo = signed_range ? -1.0f : 0.0f;
    int negatives = 0;
    for (size_t i = 0; i < N; i++) {
        if (!(buf[i] >= lo && buf[i] < 1.0f))
            return 0;
        negatives += buf[i] < 0.0f;
    }
    return signed_range ? negatives > N / 3 : negatives == 0;
}

static int f64_range_ok(int signed_range)
{
    enum { N = 20000 };
    static double buf[N];
    uint64_t s = 5;
    nplus1rt_fill_random(buf, N, NPLUS1RT_F64, signed_range, &s);
    double lo = signed_range ? -1.0 : 0.0;
    for (size_t i = 0; i < N; i++)
        if (!(buf[i] >= lo && buf[i] < 1.0))
            return 0;
    return 1;
}

/* Halves go through the diff report, which decodes them exactly. */
static int f16_range_ok(int signed_range)
{
    enum { N = 5000 };
    static uint16_t buf[N];
    uint16_t poison = 0x7EA5;
    uint64_t s = 5;
    nplus1rt_fill_random(buf, N, NPLUS1RT_F16, signed_range, &s);
    double lo = signed_range ? -1.0 : 0.0;
    for (size_t i = 0; i < N; i++) {
        nplus1rt_mismatch m;
        if (nplus1rt_diff(&poison, &buf[i], 1, NPLUS1RT_F16, 0, &m, 1) != 1)
            return 0; /* a random half is never NaN */
        if (!(m.got >= lo && m.got < 1.0) || m.got * 2048.0 != floor(m.got * 2048.0))
            return 0;
    }
    return 1;
}

static void test_float_ranges(void)
{
    check(f32_range_ok(0), "random floats lie in [0, 1)");
    check(f32_range_ok(1), "random signed floats lie in [-1, 1) and about half are negative");
    check(f64_range_ok(0) && f64_range_ok(1), "random doubles lie in [0, 1) or [-1, 1)");
    check(f16_range_ok(0) && f16_range_ok(1), "random halves lie in [0, 1) or [-1, 1) on a 2^-11 grid");
}

/* ---- poison ------------------------------------------------------------ */

static void test_poison(void)
{
    enum { N = 64 };
    float real[N], poisoned[N];
    uint64_t s = 1;
    nplus1rt_fill_random(real, N, NPLUS1RT_F32, 1, &s);
    nplus1rt_fill_poison(poisoned, N, NPLUS1RT_F32);
    int all_nan = 1;
    for (int i = 0; i < N; i++)
        all_nan &= isnan(poisoned[i]) != 0;
    check(all_nan, "a poisoned float buffer holds only NaNs");
    check(nplus1rt_diff(real, poisoned, N, NPLUS1RT_F32, 1000000, NULL, 0) == N,
          "a poisoned float buffer differs from real values in every element, whatever the tolerance");
    check(nplus1rt_diff(poisoned, poisoned, N, NPLUS1RT_F32, 0, NULL, 0) == 0,
          "two poisoned float buffers compare equal (unwritten on both sides)");

    double rd[N], pd[N];
    uint16_t rh[N], ph[N];
    nplus1rt_fill_random(rd, N, NPLUS1RT_F64, 0, &s);
    nplus1rt_fill_random(rh, N, NPLUS1RT_F16, 0, &s);
    nplus1rt_fill_poison(pd, N, NPLUS1RT_F64);
    nplus1rt_fill_poison(ph, N, NPLUS1RT_F16);
    check(nplus1rt_diff(rd, pd, N, NPLUS1RT_F64, 4, NULL, 0) == N &&
          nplus1rt_diff(rh, ph, N, NPLUS1RT_F16, 4, NULL, 0) == N,
          "poisoned double and half buffers differ from real values in every element");

    int ints[N];
    unsigned char expect[sizeof ints];
    memset(expect, 0xA5, sizeof expect);
    nplus1rt_fill_poison(ints, N, NPLUS1RT_I32);
    check(memcmp(ints, expect, sizeof ints) == 0, "a poisoned integer buffer is 0xA5 bytes");
}

/* ---- diff: floats ------------------------------------------------------ */

static void test_ulp_boundaries(void)
{
    float one = 1.0f;
    float up1 = nextafterf(one, 2.0f), up2 = nextafterf(up1, 2.0f), up3 = nextafterf(up2, 2.0f);
    check(diff1_f32(one, one, 0) == 0, "equal floats match with zero tolerance");
    check(diff1_f32(one, up1, 0) == 1, "floats one ULP apart mismatch with zero tolerance");
    check(diff1_f32(one, up1, 1) == 0, "floats one ULP apart match with a one-ULP tolerance");
    check(diff1_f32(one, up3, 2) == 1 && diff1_f32(up3, one, 2) == 1,
          "floats three ULPs apart mismatch with a two-ULP tolerance, in either order");
    check(diff1_f32(one, up3, 3) == 0, "floats three ULPs apart match with a three-ULP tolerance");
    float down1 = nextafterf(one, 0.0f);
    check(diff1_f32(down1, up1, 1) == 1 && diff1_f32(down1, up1, 2) == 0,
          "ULPs are counted across a binade boundary (just below 1 to just above is 2 ULPs)");
    float tiny = f32_from_bits(1), ntiny = f32_from_bits(0x80000001u);
    check(diff1_f32(tiny, ntiny, 1) == 1 && diff1_f32(tiny, ntiny, 2) == 0,
          "the smallest positive and negative subnormals are two ULPs apart (through zero)");
    check(diff1_f32(1.0f, -1.0f, 1000) == 1, "opposite signs far from zero mismatch");

    double d = 1.0, d1 = nextafter(d, 2.0), d2 = nextafter(d1, 2.0), d3 = nextafter(d2, 2.0);
    check(diff1_f64(d, d3, 2) == 1 && diff1_f64(d, d3, 3) == 0,
          "doubles three ULPs apart mismatch at tolerance 2 and match at 3");
    check(diff1_f64(f64_from_bits(1), f64_from_bits(0x8000000000000001ULL), 2) == 0 &&
          diff1_f64(-DBL_MAX, DBL_MAX, 4000000000u) == 1,
          "double ULP distances through zero and across the whole range do not overflow");

    check(diff1_f16(0x3C00, 0x3C01, 0) == 1 && diff1_f16(0x3C00, 0x3C01, 1) == 0,
          "halves are compared in half ULPs (1.0 and its successor are one ULP apart)");
    check(diff1_f16(0x3C00, 0x3C03, 2) == 1 && diff1_f16(0x3C00, 0x3C03, 3) == 0,
          "halves three ULPs apart mismatch at tolerance 2 and match at 3");
}

static void test_nan_and_zero(void)
{
    float qnan = f32_from_bits(0x7FC00000u), other_nan = f32_from_bits(0xFFE5A5A5u);
    check(diff1_f32(qnan, other_nan, 0) == 0, "NaN equals NaN, whatever the payload and sign");
    check(diff1_f32(qnan, 1.0f, 0xFFFFFFFFu) == 1 && diff1_f32(0.0f, qnan, 0xFFFFFFFFu) == 1,
          "NaN never equals a number, whatever the tolerance");
    check(diff1_f32(0.0f, -0.0f, 0) == 0 && f32_bits(-0.0f) != f32_bits(0.0f),
          "+0 equals -0 for floats with zero tolerance");
    check(diff1_f64(0.0, -0.0, 0) == 0 && diff1_f16(0x0000, 0x8000, 0) == 0,
          "+0 equals -0 for doubles and halves");
    check(diff1_f64(NAN, -NAN, 0) == 0 && diff1_f16(0x7E00, 0xFC01, 0) == 0,
          "NaN equals NaN for doubles and halves");
    check(diff1_f16(0x7E00, 0x3C00, 60000) == 1, "a half NaN never equals a half number");
}

static void test_infinities(void)
{
    check(diff1_f32(INFINITY, INFINITY, 0) == 0 && diff1_f32(-INFINITY, -INFINITY, 0) == 0,
          "an infinity equals the same infinity");
    check(diff1_f32(INFINITY, FLT_MAX, 1000) == 1, "an infinity never equals the largest finite float");
    check(diff1_f32(INFINITY, -INFINITY, 0xFFFFFFFFu) == 1, "+inf never equals -inf");
    check(diff1_f16(0x7C00, 0x7BFF, 5) == 1, "a half infinity never equals the largest finite half");
}

/* ---- diff: integers and the report ------------------------------------- */

static void test_integers(void)
{
    int a[4] = { 1, 2, 3, 4 }, b[4] = { 1, 2, 4, 4 };
    nplus1rt_mismatch m[4];
    check(nplus1rt_diff(a, a, 4, NPLUS1RT_I32, 0, NULL, 0) == 0, "identical int buffers match");
    check(nplus1rt_diff(a, b, 4, NPLUS1RT_I32, 1000, m, 4) == 1 && m[0].index == 2 &&
          m[0].expected == 3.0 && m[0].got == 4.0,
          "integers are compared bitwise: ulp_tol does not loosen them");

    int8_t c = -1, d = -2;
    check(nplus1rt_diff(&c, &d, 1, NPLUS1RT_I8, 0, m, 1) == 1 && m[0].expected == -1.0 && m[0].got == -2.0,
          "signed chars are reported with their sign");
    uint32_t ua = 0xFFFFFFFFu, ub = 0;
    check(nplus1rt_diff(&ua, &ub, 1, NPLUS1RT_U32, 0, m, 1) == 1 && m[0].expected == 4294967295.0,
          "uints are reported unsigned");
    uint64_t big = 0xFFFFFFFFFFFFFFFFULL, big1 = 0xFFFFFFFFFFFFFFFEULL, back;
    check(nplus1rt_diff(&big, &big1, 1, NPLUS1RT_U64, 0, m, 1) == 1 &&
          (memcpy(&back, &m[0].got, sizeof back), back == big1),
          "u64 mismatches carry the exact bit pattern of the value");
    int64_t la = -5, lb = 5;
    check(nplus1rt_diff(&la, &lb, 1, NPLUS1RT_I64, 0, m, 1) == 1 && m[0].expected == -5.0 && m[0].got == 5.0,
          "longs are reported as signed values");
}

static void test_report(void)
{
    enum { N = 100 };
    float x[N], y[N];
    uint64_t s = 3;
    nplus1rt_fill_random(x, N, NPLUS1RT_F32, 1, &s);
    memcpy(y, x, sizeof x);
    y[3] = 5.0f; y[10] = -7.0f; y[50] = 9.0f; y[99] = 11.0f;
    nplus1rt_mismatch m[3];
    m[2].index = 12345;
    size_t n = nplus1rt_diff(x, y, N, NPLUS1RT_F32, 0, m, 2);
    check(n == 4, "the diff counts every mismatch, beyond the reported ones");
    check(m[0].index == 3 && m[1].index == 10, "the first mismatches are reported in index order");
    check(m[0].expected == (double)x[3] && m[0].got == 5.0 && m[1].got == -7.0,
          "reported mismatches carry the expected and produced values");
    check(m[2].index == 12345, "the report never writes past max_report");
    check(nplus1rt_diff(x, y, N, NPLUS1RT_F32, 0, NULL, 0) == 4, "a diff without a report still counts");

    uint16_t h1 = 0x3C00, h2 = 0x0001;
    check(nplus1rt_diff(&h1, &h2, 1, NPLUS1RT_F16, 0, m, 1) == 1 && m[0].expected == 1.0 &&
          m[0].got == ldexp(1.0, -24),
          "half mismatches are decoded exactly, subnormals included");
    check(nplus1rt_diff(x, y, 0, NPLUS1RT_F32, 0, m, 1) == 0, "an empty diff finds nothing");
}

/* ---- timing ------------------------------------------------------------ */

static void test_median(void)
{
    double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };
    check(nplus1rt_median(odd, 3) == 3.0 && odd[0] == 1 && odd[2] == 5,
          "the median of an odd count is the middle value, and the input ends up sorted");
    check(nplus1rt_median(even, 4) == 2.5, "the median of an even count is the mean of the two middle values");
    check(nplus1rt_median(one, 1) == 7.0 && isnan(nplus1rt_median(one, 0)),
          "the median of one value is that value; of none, NaN");
    double t0 = nplus1rt_now_ms(), t1 = nplus1rt_now_ms();
    check(t0 > 0.0 && t1 >= t0, "the monotonic clock never runs backwards");
}

/* ---- validation inputs: recipes, struct fields, multisets --------------- */

/* 1 when the recipe is refused on kind e with exactly the message want. */
static int refused_with(nplus1rt_elem e, const char *recipe, const char *want)
{
    uint64_t st = 5;
    char err[256] = "";
    long long buf[8];
    return nplus1rt_fill_recipe(buf, 8, e, recipe, &st, err, sizeof err) != 0 &&
           !strcmp(err, want);
}

static void test_recipe_fits_the_kind(void)
{
    uint64_t st = 5;
    char err[256] = "";
    signed char c[256];
    int ok = nplus1rt_fill_recipe(c, 256, NPLUS1RT_I8, "range:-128:128", &st, err, sizeof err) == 0;
    int lo = 0, hi = 0;
    for (int i = 0; i < 256; i++) {
        lo |= c[i] < -100;
        hi |= c[i] > 100;
    }
    check(ok && lo && hi, "range:-128:128 is a char's whole range (HI is exclusive)");
    ok = nplus1rt_fill_recipe(c, 256, NPLUS1RT_I8, "range:0:128", &st, err, sizeof err) == 0;
    for (int i = 0; i < 256; i++)
        ok &= c[i] >= 0;
    check(ok, "range:0:128 on char gives 0..127, never a wrapped negative");
    check(refused_with(NPLUS1RT_I8, "range:0:129", "range 0:129 does not fit char (-128..127)"),
          "a range past a char's top is refused as not fitting the kind");
    check(refused_with(NPLUS1RT_I8, "range:-129:0", "range -129:0 does not fit char (-128..127)"),
          "a range below a char's bottom is refused as not fitting the kind");
    check(refused_with(NPLUS1RT_U8, "fill:-1", "-1 does not fit uchar (0..255)"),
          "fill:-1 on uchar is refused, not wrapped to 255");
    check(refused_with(NPLUS1RT_I16, "choice:1,40000", "40000 does not fit short (-32768..32767)"),
          "choice names the value that does not fit");
    check(refused_with(NPLUS1RT_I64, "fill:9223372036854775808",
                       "9223372036854775808 does not fit long "
                       "(-9223372036854775808..9223372036854775807)"),
          "a value past long's top is refused");
    unsigned long long u;
    check(nplus1rt_fill_recipe(&u, 1, NPLUS1RT_U64, "fill:18446744073709551615", &st, err,
                               sizeof err) == 0 && u == 18446744073709551615ULL,
          "ulong's largest value fits");
}

static void test_recipes(void)
{
    uint64_t st = 5;
    char err[256] = "";
    int v[64];
    check(nplus1rt_fill_recipe(v, 64, NPLUS1RT_I32, "fill:7", &st, err, sizeof err) == 0 &&
              v[0] == 7 && v[63] == 7, "fill:V sets every element to V");
    check(nplus1rt_fill_recipe(v, 64, NPLUS1RT_I32, "iota", &st, err, sizeof err) == 0 &&
              v[0] == 0 && v[1] == 1 && v[63] == 63, "iota numbers the elements 0, 1, 2, ...");
    int in_range = nplus1rt_fill_recipe(v, 64, NPLUS1RT_I32, "range:-3:2", &st, err, sizeof err) == 0;
    for (int i = 0; i < 64; i++)
        in_range &= v[i] >= -3 && v[i] < 2;
    check(in_range, "range:LO:HI on integers stays in [LO, HI), negative LO included");
    float f[64];
    int fin = nplus1rt_fill_recipe(f, 64, NPLUS1RT_F32, "range:-3:-2", &st, err, sizeof err) == 0;
    for (int i = 0; i < 64; i++)
        fin &= f[i] >= -3.0f && f[i] < -2.0f;
    check(fin, "range:LO:HI on floats stays in [LO, HI)");
    short s[64];
    int seen_a = 0, seen_b = 0, only = 1;
    nplus1rt_fill_recipe(s, 64, NPLUS1RT_I16, "choice:-5,9", &st, err, sizeof err);
    for (int i = 0; i < 64; i++) {
        seen_a |= s[i] == -5;
        seen_b |= s[i] == 9;
        only &= s[i] == -5 || s[i] == 9;
    }
    check(only && seen_a && seen_b, "choice:A,B picks only among its values, and each of them");
    nplus1rt_fill_recipe(f, 64, NPLUS1RT_F32, "choice:0,1", &st, err, sizeof err);
    int ones = 0;
    for (int i = 0; i < 64; i++)
        ones += f[i] == 1.0f;
    check(ones > 0, "choice:0,1 makes mask == 1.0f reachable");
    check(nplus1rt_fill_recipe(v, 4, NPLUS1RT_I32, "range:5:1", &st, err, sizeof err) != 0 &&
              strstr(err, "range:5:1") != NULL, "an empty range is refused with the recipe named");
    check(nplus1rt_fill_recipe(v, 4, NPLUS1RT_I32, "fill:x", &st, err, sizeof err) != 0,
          "fill: with a value that does not parse is refused");
    test_recipe_fits_the_kind();
    check(nplus1rt_is_recipe("iota") && nplus1rt_is_recipe("choice:1") && !nplus1rt_is_recipe("7") &&
              !nplus1rt_is_recipe("size:4"), "recipes are told from values and sizes");
}

static void test_fields(void)
{
    struct node { int first; float w; short tag[2]; } n[100];
    nplus1rt_field f[] = {{0, NPLUS1RT_I32, 1}, {4, NPLUS1RT_F32, 1}, {8, NPLUS1RT_I16, 2}};
    uint64_t st = 9;
    memset(n, 0xff, sizeof n);
    nplus1rt_fill_fields(n, 100, sizeof n[0], f, 3, 100, &st);
    int ok = 1;
    for (int i = 0; i < 100; i++)
        ok &= n[i].first >= 0 && n[i].first < 100 && n[i].w >= 0.0f && n[i].w < 1.0f &&
              n[i].tag[1] >= 0 && n[i].tag[1] < 100;
    check(ok, "struct buffers are filled field by field: integers in [0, N), floats in [0, 1)");
}

static void test_unordered(void)
{
    int a[6] = {5, 1, 4, 1, 9, 2}, b[6] = {1, 9, 2, 5, 1, 4}, c[6] = {1, 9, 2, 5, 4, 4};
    check(nplus1rt_diff_unordered(a, b, 6, sizeof(int)) == 0,
          "a multiset diff accepts the same elements in another order");
    check(nplus1rt_diff_unordered(a, c, 6, sizeof(int)) != 0,
          "a multiset diff counts repeats: {1,1} is not {4,4}");
}

int main(void)
{
    test_elem_kinds();
    test_rand();
    test_fill_determinism();
    test_int_ranges();
    test_float_ranges();
    test_poison();
    test_ulp_boundaries();
    test_nan_and_zero();
    test_infinities();
    test_integers();
    test_report();
    test_median();
    test_recipes();
    test_fields();
    test_unordered();
    return check_summary("runtime data");
}
