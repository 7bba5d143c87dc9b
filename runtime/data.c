/* SPDX-License-Identifier: Apache-2.0 */
/*
 * data.c - element kinds, random inputs, poison, buffer diffs.
 *
 * The module owns: the size and OpenCL C name of each element kind, the
 * splitmix64 generator, filling buffers with deterministic random values or
 * a poison pattern, and comparing an expected buffer with a produced one.
 *
 * Conventions beyond nplus1rt.h:
 *   - Random integers of the 8- and 16-bit kinds cover the kind's whole
 *     range (char [-128, 128), ushort [0, 65536), ...), so a `< 0` test on
 *     a char or a short sees both sides; wider kinds use [0, 1024), or
 *     [-512, 512) for signed kinds with signed_range, as the header says.
 *   - Integer recipes refuse a value the kind cannot hold (fill:300 on a
 *     char) instead of truncating it; range:LO:HI's HI is exclusive, so it
 *     may be one past the kind's largest value (range:-128:128 on a char).
 *   - Random floats are exact multiples of a power of two (2^-11 for half,
 *     2^-24 for float, 2^-53 for double), so every kind holds them exactly.
 *   - Poison: integers are 0xA5 bytes; floats are quiet NaNs whose low bytes
 *     are 0xA5 (half 0x7EA5, float 0x7FE5A5A5, double 0x7FFCA5A5A5A5A5A5).
 *     Since NaN equals NaN in a diff, a poisoned element only mismatches a
 *     written one.
 *   - ULPs are counted in the element's own format (a half's ULP is a
 *     half's), on the sign-magnitude bits mapped to a monotonic integer
 *     line, so +0 and -0 are 0 ULPs apart. An infinity equals only the same
 *     infinity, however large ulp_tol is.
 *   - Mismatch values: integers and floats converted to double (halves
 *     decoded exactly); a u64 is stored as its bit pattern (memcpy into the
 *     double) so the caller can recover it without rounding.
 */
#include "nplus1rt.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- element kinds ----------------------------------------------------- */

size_t nplus1rt_elem_size(nplus1rt_elem e)
{
    switch (e) {
    case NPLUS1RT_I8: case NPLUS1RT_U8: return 1;
    case NPLUS1RT_I16: case NPLUS1RT_U16: case NPLUS1RT_F16: return 2;
    case NPLUS1RT_I32: case NPLUS1RT_U32: case NPLUS1RT_F32: return 4;
    case NPLUS1RT_I64: case NPLUS1RT_U64: case NPLUS1RT_F64: return 8;
    }
    return 0;
}

const char *nplus1rt_elem_name(nplus1rt_elem e)
{
    switch (e) {
    case NPLUS1RT_I8: return "char";
    case NPLUS1RT_U8: return "uchar";
    case NPLUS1RT_I16: return "short";
    case NPLUS1RT_U16: return "ushort";
    case NPLUS1RT_I32: return "int";
    case NPLUS1RT_U32: return "uint";
    case NPLUS1RT_I64: return "long";
    case NPLUS1RT_U64: return "ulong";
    case NPLUS1RT_F16: return "half";
    case NPLUS1RT_F32: return "float";
    case NPLUS1RT_F64: return "double";
    }
    return "unknown";
}

static int is_float(nplus1rt_elem e)
{
    return e == NPLUS1RT_F16 || e == NPLUS1RT_F32 || e == NPLUS1RT_F64;
}

static int is_signed_int(nplus1rt_elem e)
{
    return e == NPLUS1RT_I8 || e == NPLUS1RT_I16 || e == NPLUS1RT_I32 || e == NPLUS1RT_I64;
}

/* ---- raw element access ------------------------------------------------ */

static uint64_t load_bits(const unsigned char *p, size_t size)
{
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64 = 0;
    switch (size) {
    case 1: memcpy(&u8, p, 1); return u8;
    case 2: memcpy(&u16, p, 2); return u16;
    case 4: memcpy(&u32, p, 4); return u32;
    case 8: memcpy(&u64, p, 8); return u64;
    }
    return 0;
}

/* Stores the low size bytes of bits (two's complement for signed values). */
static void store_bits(unsigned char *p, size_t size, uint64_t bits)
{
    uint8_t u8 = (uint8_t)bits;
    uint16_t u16 = (uint16_t)bits;
    uint32_t u32 = (uint32_t)bits;
    switch (size) {
    case 1: memcpy(p, &u8, 1); break;
    case 2: memcpy(p, &u16, 2); break;
    case 4: memcpy(p, &u32, 4); break;
    case 8: memcpy(p, &bits, 8); break;
    }
}

/* ---- half precision ---------------------------------------------------- */

static float half_to_float(uint16_t h)
{
    int exponent = (h >> 10) & 0x1f;
    int mantissa = h & 0x3ff;
    float magnitude;
    if (exponent == 0)
        magnitude = ldexpf((float)mantissa, -24);
    else if (exponent == 31)
        magnitude = mantissa ? NAN : INFINITY;
    else
        magnitude = ldexpf((float)(mantissa | 0x400), exponent - 25);
    return (h & 0x8000) ? -magnitude : magnitude;
}

/* Round to nearest even, as the default rounding mode of OpenCL C. */
static uint16_t half_from_float(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    uint32_t abs = x & 0x7fffffffu;
    if (abs > 0x7f800000u)
        return sign | 0x7e00;                 /* NaN */
    if (abs >= 0x477ff000u)
        return sign | 0x7c00;                 /* >= 65520 rounds to infinity */
    if (abs < 0x38800000u)                    /* below 2^-14: subnormal half */
        return sign | (uint16_t)lrintf(fabsf(f) * 16777216.0f);
    uint32_t h = ((abs >> 23) - 127 + 15) << 10 | (abs & 0x7fffffu) >> 13;
    uint32_t rest = abs & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1)))
        h++;                                  /* a carry into the exponent is right */
    return sign | (uint16_t)h;
}

/* ---- random inputs ----------------------------------------------------- */

uint64_t nplus1rt_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* How many distinct integers a random element may take (a power of two):
 * the whole range of an 8- or 16-bit kind, 1024 for wider kinds. */
static uint64_t int_span(nplus1rt_elem e)
{
    size_t size = nplus1rt_elem_size(e);
    return size < 4 ? 1ULL << (8 * size) : 1024;
}

static uint64_t random_int_bits(nplus1rt_elem e, int signed_range, uint64_t *state)
{
    uint64_t span = int_span(e);
    uint64_t r = nplus1rt_rand(state) >> 32; /* the high bits are the better ones */
    int centred = is_signed_int(e) && (signed_range || nplus1rt_elem_size(e) < 4);
    if (centred)
        return (uint64_t)((int64_t)(r % span) - (int64_t)(span / 2));
    return r % span;
}

static uint64_t random_float_bits(nplus1rt_elem e, int signed_range, uint64_t *state)
{
    uint64_t r = nplus1rt_rand(state);
    if (e == NPLUS1RT_F64) {
        double u = (double)(r >> 11) * 0x1p-53;
        double v = signed_range ? 2.0 * u - 1.0 : u;
        uint64_t bits;
        memcpy(&bits, &v, sizeof bits);
        return bits;
    }
    float u = e == NPLUS1RT_F16 ? (float)(r >> 53) * 0x1p-11f : (float)(r >> 40) * 0x1p-24f;
    float v = signed_range ? 2.0f * u - 1.0f : u;
    if (e == NPLUS1RT_F16)
        return half_from_float(v);
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits;
}

void nplus1rt_fill_random(void *buf, size_t count, nplus1rt_elem e,
                          int signed_range, uint64_t *state)
{
    size_t size = nplus1rt_elem_size(e);
    unsigned char *p = buf;
    if (!buf || !state || size == 0)
        return;
    for (size_t i = 0; i < count; i++, p += size) {
        uint64_t bits = is_float(e) ? random_float_bits(e, signed_range, state)
                                    : random_int_bits(e, signed_range, state);
        store_bits(p, size, bits);
    }
}

void nplus1rt_fill_poison(void *buf, size_t count, nplus1rt_elem e)
{
    size_t size = nplus1rt_elem_size(e);
    unsigned char *p = buf;
    if (!buf || size == 0)
        return;
    if (!is_float(e)) {
        memset(buf, 0xA5, count * size);
        return;
    }
    uint64_t nan = e == NPLUS1RT_F16 ? 0x7EA5u
                 : e == NPLUS1RT_F32 ? 0x7FE5A5A5u : 0x7FFCA5A5A5A5A5A5ULL;
    for (size_t i = 0; i < count; i++, p += size)
        store_bits(p, size, nan);
}

static double as_double(const unsigned char *p, nplus1rt_elem e);

/* ---- struct layouts and recipes (validation inputs) --------------------- */

static uint64_t float_bits(nplus1rt_elem e, double v)
{
    if (e == NPLUS1RT_F64) {
        uint64_t bits;
        memcpy(&bits, &v, sizeof bits);
        return bits;
    }
    float f = (float)v;
    if (e == NPLUS1RT_F16)
        return half_from_float(f);
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

void nplus1rt_fill_fields(void *buf, size_t count, size_t stride, const nplus1rt_field *f,
                          unsigned nfields, uint64_t int_limit, uint64_t *state)
{
    unsigned char *p = buf;
    if (!buf || !state)
        return;
    memset(buf, 0, count * stride);
    for (size_t i = 0; i < count; i++, p += stride) {
        for (unsigned k = 0; k < nfields; k++) {
            size_t size = nplus1rt_elem_size(f[k].elem);
            for (unsigned j = 0; j < f[k].count; j++) {
                unsigned char *dst = p + f[k].offset + j * size;
                if (f[k].offset + (j + 1) * size > stride)
                    break;
                uint64_t bits = is_float(f[k].elem) ? random_float_bits(f[k].elem, 0, state)
                                : int_limit ? (nplus1rt_rand(state) >> 32) % int_limit
                                            : random_int_bits(f[k].elem, 0, state);
                store_bits(dst, size, bits);
            }
        }
    }
}

/* What parse_scalar and the recipes found. */
enum { PARSED = 0, NO_PARSE = -1, NO_FIT = 1 };
enum { RECIPE_OK = 0, RECIPE_BAD = -1, RECIPE_EXPLAINED = -2 }; /* EXPLAINED: err is set */

/* An integer as written: its sign and magnitude, before any kind truncates it. */
typedef struct wide_int {
    int neg;
    uint64_t mag;
} wide_int;

/* Whether kind e holds w; exclusive: whether it holds w - 1 (the HI of a range). */
static int int_fits(nplus1rt_elem e, wide_int w, int exclusive)
{
    if (exclusive && w.neg && w.mag == UINT64_MAX)
        return 0;
    if (exclusive)
        w = w.neg ? (wide_int){1, w.mag + 1} : w.mag ? (wide_int){0, w.mag - 1} : (wide_int){1, 1};
    unsigned bits = 8 * (unsigned)nplus1rt_elem_size(e);
    if (!is_signed_int(e))
        return (!w.neg || !w.mag) && (bits == 64 || w.mag < 1ULL << bits);
    uint64_t half = 1ULL << (bits - 1);
    return w.neg ? w.mag <= half : w.mag < half;
}

/* "-128..127" for a char. */
static void int_limits(nplus1rt_elem e, char *out, size_t n)
{
    unsigned bits = 8 * (unsigned)nplus1rt_elem_size(e);
    unsigned long long half = 1ULL << (bits - 1);
    if (is_signed_int(e))
        snprintf(out, n, "-%llu..%llu", half, half - 1);
    else
        snprintf(out, n, "0..%llu", bits == 64 ? (unsigned long long)UINT64_MAX : 2 * half - 1);
}

static int parse_int(const char *text, nplus1rt_elem e, int exclusive, uint64_t *bits,
                     char **end)
{
    const char *digits = text + (*text == '-' || *text == '+');
    wide_int w = {*text == '-', 0};
    *end = (char *)text;
    if (*digits < '0' || *digits > '9')
        return NO_PARSE;
    errno = 0;
    w.mag = strtoull(digits, end, 0);
    if (errno == ERANGE)
        return NO_FIT;
    *bits = w.neg ? 0 - w.mag : w.mag; /* two's complement; store_bits keeps the low bytes */
    return int_fits(e, w, exclusive) ? PARSED : NO_FIT;
}

/*
 * One value of kind e from text; end is set past it. PARSED, NO_PARSE, or
 * NO_FIT: an integer kind e cannot hold (exclusive: an exclusive upper bound).
 */
static int parse_scalar(const char *text, nplus1rt_elem e, int exclusive, uint64_t *bits,
                        char **end)
{
    if (!is_float(e))
        return parse_int(text, e, exclusive, bits, end);
    double v = strtod(text, end);
    *bits = float_bits(e, v);
    return *end == text ? NO_PARSE : PARSED;
}

static double as_number(nplus1rt_elem e, uint64_t bits)
{
    unsigned char tmp[8];
    store_bits(tmp, nplus1rt_elem_size(e), bits);
    if (e == NPLUS1RT_U64)
        return (double)bits;
    return as_double(tmp, e);
}

static int recipe_error(char *err, size_t errlen, const char *recipe, nplus1rt_elem e)
{
    snprintf(err, errlen, "'%s' is not a recipe for %s elements (fill:V, iota, range:LO:HI, "
                          "choice:A,B,...)", recipe, nplus1rt_elem_name(e));
    return -1;
}

/* "<what><len chars of text> does not fit char (-128..127)". */
static int fit_error(char *err, size_t errlen, const char *what, const char *text, int len,
                     nplus1rt_elem e)
{
    char limits[64];
    int_limits(e, limits, sizeof limits);
    snprintf(err, errlen, "%s%.*s does not fit %s (%s)", what, len, text, nplus1rt_elem_name(e),
             limits);
    return RECIPE_EXPLAINED;
}

/* lo < hi, both parsed for kind e. */
static int below(nplus1rt_elem e, uint64_t lo_bits, uint64_t hi_bits)
{
    if (is_float(e))
        return as_number(e, hi_bits) > as_number(e, lo_bits);
    if (is_signed_int(e))
        return (int64_t)lo_bits < (int64_t)hi_bits;
    return lo_bits < hi_bits;
}

static int fill_range(unsigned char *p, size_t count, nplus1rt_elem e, const char *spec,
                      uint64_t *state, char *err, size_t errlen)
{
    size_t size = nplus1rt_elem_size(e);
    uint64_t lo_bits = 0, hi_bits = 0; /* gcc 13 -O2 cannot see parse_scalar set them */
    char *mid, *end;
    int lo_rc = parse_scalar(spec, e, 0, &lo_bits, &mid);
    if (lo_rc == NO_PARSE || *mid != ':')
        return RECIPE_BAD;
    int hi_rc = parse_scalar(mid + 1, e, 1, &hi_bits, &end);
    if (hi_rc == NO_PARSE || *end)
        return RECIPE_BAD;
    if (lo_rc == NO_FIT || hi_rc == NO_FIT)
        return fit_error(err, errlen, "range ", spec, (int)strlen(spec), e);
    if (!below(e, lo_bits, hi_bits))
        return RECIPE_BAD;
    double lo = as_number(e, lo_bits), hi = as_number(e, hi_bits);
    for (size_t i = 0; i < count; i++, p += size) {
        uint64_t r = nplus1rt_rand(state);
        if (is_float(e)) {
            double v = lo + (hi - lo) * ((double)(r >> 11) * 0x1p-53);
            store_bits(p, size, float_bits(e, v < hi ? v : lo));
        } else {
            uint64_t span = hi_bits - lo_bits; /* two's complement: also for negative lo */
            store_bits(p, size, lo_bits + (r % span));
        }
    }
    return RECIPE_OK;
}

static int fill_choice(unsigned char *p, size_t count, nplus1rt_elem e, const char *spec,
                       uint64_t *state, char *err, size_t errlen)
{
    uint64_t values[256];
    size_t n = 0, size = nplus1rt_elem_size(e);
    for (const char *q = spec; n < 256;) {
        char *end;
        int rc = parse_scalar(q, e, 0, &values[n++], &end);
        if (rc == NO_FIT)
            return fit_error(err, errlen, "", q, (int)(end - q), e);
        if (rc == NO_PARSE)
            return RECIPE_BAD;
        if (*end == '\0')
            break;
        if (*end != ',')
            return RECIPE_BAD;
        q = end + 1;
    }
    for (size_t i = 0; i < count; i++, p += size)
        store_bits(p, size, values[(nplus1rt_rand(state) >> 32) % n]);
    return RECIPE_OK;
}

static int fill_value(unsigned char *p, size_t count, nplus1rt_elem e, const char *spec,
                      char *err, size_t errlen)
{
    size_t size = nplus1rt_elem_size(e);
    uint64_t bits;
    char *end;
    int rc = parse_scalar(spec, e, 0, &bits, &end);
    if (rc == NO_FIT)
        return fit_error(err, errlen, "", spec, (int)(end - spec), e);
    if (rc == NO_PARSE || *end)
        return RECIPE_BAD;
    for (size_t i = 0; i < count; i++, p += size)
        store_bits(p, size, bits);
    return RECIPE_OK;
}

int nplus1rt_is_recipe(const char *t)
{
    return !strncmp(t, "fill:", 5) || !strcmp(t, "iota") || !strncmp(t, "range:", 6) ||
           !strncmp(t, "choice:", 7);
}

int nplus1rt_fill_recipe(void *buf, size_t count, nplus1rt_elem e, const char *recipe,
                         uint64_t *state, char *err, size_t errlen)
{
    size_t size = nplus1rt_elem_size(e);
    unsigned char *p = buf;
    int rc = RECIPE_BAD;
    if (!strncmp(recipe, "fill:", 5)) {
        rc = fill_value(p, count, e, recipe + 5, err, errlen);
    } else if (!strcmp(recipe, "iota")) {
        rc = RECIPE_OK;
        for (size_t i = 0; i < count; i++, p += size)
            store_bits(p, size, is_float(e) ? float_bits(e, (double)i) : (uint64_t)i);
    } else if (!strncmp(recipe, "range:", 6)) {
        rc = fill_range(p, count, e, recipe + 6, state, err, errlen);
    } else if (!strncmp(recipe, "choice:", 7)) {
        rc = fill_choice(p, count, e, recipe + 7, state, err, errlen);
    }
    if (rc == RECIPE_BAD)
        return recipe_error(err, errlen, recipe, e);
    return rc == RECIPE_OK ? 0 : -1;
}

static int compare_elements(const void *a, const void *b, void *size)
{
    return memcmp(a, b, *(size_t *)size);
}

/* A small merge sort with a context (qsort_r is not C11). */
static void sort_elements(unsigned char *v, unsigned char *tmp, size_t n, size_t size)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    sort_elements(v, tmp, h, size);
    sort_elements(v + h * size, tmp, n - h, size);
    size_t i = 0, j = h, k = 0;
    while (i < h || j < n) {
        int take_left = j >= n || (i < h && compare_elements(v + i * size, v + j * size, &size) <= 0);
        memcpy(tmp + k++ * size, v + (take_left ? i++ : j++) * size, size);
    }
    memcpy(v, tmp, n * size);
}

size_t nplus1rt_diff_unordered(const void *expected, const void *got, size_t count,
                               size_t elem_size)
{
    size_t bytes = count * elem_size, bad = 0;
    unsigned char *a = malloc(bytes ? bytes : 1), *b = malloc(bytes ? bytes : 1),
                  *tmp = malloc(bytes ? bytes : 1);
    if (!a || !b || !tmp) {
        free(a), free(b), free(tmp);
        return count;
    }
    memcpy(a, expected, bytes);
    memcpy(b, got, bytes);
    sort_elements(a, tmp, count, elem_size);
    sort_elements(b, tmp, count, elem_size);
    for (size_t i = 0; i < count; i++)
        bad += memcmp(a + i * elem_size, b + i * elem_size, elem_size) != 0;
    free(a), free(b), free(tmp);
    return bad;
}

/* ---- diffs ------------------------------------------------------------- */

/* The layout of one IEEE 754 binary format. */
typedef struct float_format {
    unsigned bits;
    unsigned mantissa_bits;
} float_format;

static float_format format_of(nplus1rt_elem e)
{
    float_format f = { 64, 52 };
    if (e == NPLUS1RT_F16)
        f = (float_format){ 16, 10 };
    else if (e == NPLUS1RT_F32)
        f = (float_format){ 32, 23 };
    return f;
}

/* Maps sign-magnitude bits onto a monotonic unsigned line; -0 and +0 meet. */
static uint64_t ordered(uint64_t bits, uint64_t sign_mask)
{
    uint64_t magnitude = bits & (sign_mask - 1);
    return (bits & sign_mask) ? sign_mask - magnitude : sign_mask + magnitude;
}

static int floats_close(uint64_t a, uint64_t b, float_format f, unsigned ulp_tol)
{
    uint64_t sign_mask = 1ULL << (f.bits - 1);
    uint64_t inf = (sign_mask - 1) & ~((1ULL << f.mantissa_bits) - 1);
    uint64_t abs_a = a & (sign_mask - 1), abs_b = b & (sign_mask - 1);
    int nan_a = abs_a > inf, nan_b = abs_b > inf;
    if (nan_a || nan_b)
        return nan_a && nan_b;
    if (abs_a == inf || abs_b == inf)
        return a == b;
    uint64_t oa = ordered(a, sign_mask), ob = ordered(b, sign_mask);
    uint64_t distance = oa > ob ? oa - ob : ob - oa;
    return distance <= ulp_tol;
}

static int elements_equal(const unsigned char *a, const unsigned char *b,
                          nplus1rt_elem e, unsigned ulp_tol)
{
    size_t size = nplus1rt_elem_size(e);
    if (!is_float(e))
        return memcmp(a, b, size) == 0;
    return floats_close(load_bits(a, size), load_bits(b, size), format_of(e), ulp_tol);
}

static double as_double(const unsigned char *p, nplus1rt_elem e)
{
    uint64_t bits = load_bits(p, nplus1rt_elem_size(e));
    double d;
    switch (e) {
    case NPLUS1RT_I8: return (int8_t)bits;
    case NPLUS1RT_I16: return (int16_t)bits;
    case NPLUS1RT_I32: return (int32_t)bits;
    case NPLUS1RT_I64: return (double)(int64_t)bits;
    case NPLUS1RT_U8: case NPLUS1RT_U16: case NPLUS1RT_U32: return (double)bits;
    case NPLUS1RT_F16: return half_to_float((uint16_t)bits);
    case NPLUS1RT_F32: {
        float f;
        memcpy(&f, p, sizeof f);
        return f;
    }
    case NPLUS1RT_U64: case NPLUS1RT_F64:
        memcpy(&d, &bits, sizeof d); /* u64: its bit pattern, see above */
        return d;
    }
    return 0.0;
}

size_t nplus1rt_diff(const void *expected, const void *got, size_t count,
                     nplus1rt_elem e, unsigned ulp_tol,
                     nplus1rt_mismatch *first, size_t max_report)
{
    size_t size = nplus1rt_elem_size(e);
    if (!expected || !got || size == 0)
        return count;
    const unsigned char *x = expected, *y = got;
    size_t mismatches = 0;
    for (size_t i = 0; i < count; i++, x += size, y += size) {
        if (elements_equal(x, y, e, ulp_tol))
            continue;
        if (first && mismatches < max_report)
            first[mismatches] = (nplus1rt_mismatch){ i, as_double(x, e), as_double(y, e) };
        mismatches++;
    }
    return mismatches;
}

char *nplus1rt_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, r;
    char *s = malloc(cap);
    while (s && (r = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (n + 1 == cap) {
            char *t = realloc(s, cap *= 2);
            if (!t)
                free(s);
            s = t;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (s && bad) {
        free(s);
        return NULL;
    }
    if (s)
        s[n] = '\0';
    return s;
}
