/*
 * params.c - a kernel's parameters as the host sees them: cl_mem for
 * __global/__constant pointers, the cl_ host type for scalars and vectors,
 * and the element kind the runtime fills and diffs.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "util.h"

/* Mirrors nplus1rt_elem in runtime/nplus1rt.h (same order). */
enum { E_I8, E_U8, E_I16, E_U16, E_I32, E_U32, E_I64, E_U64, E_F16, E_F32, E_F64 };

typedef struct scalar_kind {
    enum CXTypeKind kind;
    int elem;
    unsigned size;
    const char *host;
} scalar_kind;

static const scalar_kind scalars[] = {
    {CXType_Char_S, E_I8, 1, "cl_char"},    {CXType_SChar, E_I8, 1, "cl_char"},
    {CXType_Char_U, E_U8, 1, "cl_uchar"},   {CXType_UChar, E_U8, 1, "cl_uchar"},
    {CXType_Short, E_I16, 2, "cl_short"},   {CXType_UShort, E_U16, 2, "cl_ushort"},
    {CXType_Int, E_I32, 4, "cl_int"},       {CXType_UInt, E_U32, 4, "cl_uint"},
    {CXType_Long, E_I64, 8, "cl_long"},     {CXType_ULong, E_U64, 8, "cl_ulong"},
    {CXType_Half, E_F16, 2, "cl_half"},     {CXType_Float, E_F32, 4, "cl_float"},
    {CXType_Double, E_F64, 8, "cl_double"},
};

static const scalar_kind *find_scalar(enum CXTypeKind k)
{
    for (size_t i = 0; i < sizeof scalars / sizeof *scalars; i++)
        if (scalars[i].kind == k)
            return &scalars[i];
    return NULL;
}

static void report(diag_sink *diag, analysis *an, CXCursor at, const char *fmt, const char *a,
                   const char *b)
{
    diag_loc loc = parse_diag_loc(an->pr, clang_getCursorLocation(at));
    char msg[512];
    snprintf(msg, sizeof msg, fmt, a, b);
    diag_report(diag, DIAG_ERROR, &loc, "nplus1-unsupported-arg", "%s", msg);
}

static void note(diag_sink *diag, analysis *an, CXCursor at, const char *msg)
{
    diag_loc loc = parse_diag_loc(an->pr, clang_getCursorLocation(at));
    diag_report(diag, DIAG_NOTE, &loc, NULL, "%s", msg);
}

/* Fills elem/lanes/size/host type from a value type; 0 on success. */
static int describe_value(CXType t, kernel_param *p, int for_host)
{
    t = clang_getCanonicalType(t);
    if (t.kind == CXType_Enum) /* passed as its underlying integer type */
        t = clang_getCanonicalType(clang_getEnumDeclIntegerType(clang_getTypeDeclaration(t)));
    unsigned lanes = 1;
    if (t.kind == CXType_Vector || t.kind == CXType_ExtVector) {
        lanes = (unsigned)clang_getNumElements(t);
        t = clang_getCanonicalType(clang_getElementType(t));
    }
    const scalar_kind *s = find_scalar(t.kind);
    if (!s)
        return -1;
    p->elem = s->elem;
    p->lanes = lanes;
    p->size = s->size * (lanes == 3 ? 4 : lanes);
    if (for_host) {
        char buf[32];
        if (lanes == 1)
            snprintf(buf, sizeof buf, "%s", s->host);
        else
            snprintf(buf, sizeof buf, "%s%u", s->host, lanes);
        p->host_type = xstrdup(buf);
    }
    return 0;
}

/* ---- struct layouts: the scalar fields validation fills one by one ---- */

typedef struct layout {
    param_field *f;
    unsigned n, cap;
    unsigned base;            /* byte offset of the struct being visited */
} layout;

static void add_field(layout *l, unsigned offset, int elem, unsigned count)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 8;
        l->f = xrealloc(l->f, l->cap * sizeof *l->f);
    }
    l->f[l->n++] = (param_field){offset, elem, count};
}

static void layout_type(layout *l, CXType t, unsigned offset, int depth);

static enum CXVisitorResult visit_field(CXCursor c, CXClientData data)
{
    layout *l = data;
    long long bits = clang_Cursor_getOffsetOfField(c);
    if (bits < 0 || bits % 8) /* bit-fields: left zero */
        return CXVisit_Continue;
    layout_type(l, clang_getCursorType(c), l->base + (unsigned)(bits / 8), 1);
    return CXVisit_Continue;
}

/* Adds the scalar fields of t at offset: nested structs, arrays and vectors. */
static void layout_type(layout *l, CXType t, unsigned offset, int depth)
{
    t = clang_getCanonicalType(t);
    if (depth > 16 || l->n > 4096)
        return;
    if (t.kind == CXType_Enum)
        t = clang_getCanonicalType(clang_getEnumDeclIntegerType(clang_getTypeDeclaration(t)));
    kernel_param v;
    memset(&v, 0, sizeof v);
    if (describe_value(t, &v, 0) == 0) {
        add_field(l, offset, v.elem, v.lanes);
        return;
    }
    if (t.kind == CXType_ConstantArray) {
        CXType e = clang_getArrayElementType(t);
        long long n = clang_getNumElements(t), sz = clang_Type_getSizeOf(e);
        for (long long i = 0; sz > 0 && i < n && l->n <= 4096; i++)
            layout_type(l, e, offset + (unsigned)(i * sz), depth + 1);
        return;
    }
    if (t.kind == CXType_Record) {
        unsigned saved = l->base;
        l->base = offset;
        clang_Type_visitFields(t, visit_field, l);
        l->base = saved;
    }
}

static void describe_layout(CXType pointee, kernel_param *p)
{
    layout l = {NULL, 0, 0, 0};
    layout_type(&l, pointee, 0, 0);
    p->fields = l.f;
    p->nfields = l.n;
}

static char *type_spelling(CXType t)
{
    CXString s = clang_getTypeSpelling(t);
    char *d = xstrdup(clang_getCString(s));
    clang_disposeString(s);
    return d;
}

/* Removes OpenCL address-space words from a type spelling. */
static void strip_address_space(char *s)
{
    static const char *words[] = {"__global ", "__constant ", "__private ", "__generic ",
                                  "__local ", "__private", NULL};
    for (int i = 0; words[i]; i++) {
        char *p;
        size_t n = strlen(words[i]);
        while ((p = strstr(s, words[i])) != NULL)
            memmove(p, p + n, strlen(p + n) + 1);
    }
}

/*
 * The declaration clang expanded, for a parameter written by a macro
 * ('__kernel void k(KERN_ATTR(float))'): its type as declared, then its name
 * ("__global const float *in"; an array's name goes before its '[').
 */
static char *expanded_decl(CXCursor c, const char *name)
{
    char *type = type_spelling(clang_getCursorType(c));
    char *pv;
    while ((pv = strstr(type, "__private")) != NULL) /* implied for parameters */
        memmove(pv, pv + 9 + (pv[9] == ' '), strlen(pv + 9 + (pv[9] == ' ')) + 1);
    char *bracket = strchr(type, '[');
    size_t head = bracket ? (size_t)(bracket - type) : strlen(type);
    while (head > 0 && type[head - 1] == ' ')
        head--;
    const char *sep = head > 0 && type[head - 1] == '*' ? "" : " ";
    char *d = xmalloc(strlen(type) + strlen(sep) + strlen(name) + 1);
    sprintf(d, "%.*s%s%s%s", (int)head, type, sep, name, bracket ? bracket : "");
    free(type);
    return d;
}

static int is_ident_char(char ch)
{
    return isalnum((unsigned char)ch) || ch == '_';
}

/* Does the text hold name as a word of its own? */
static int has_word(const char *t, size_t len, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; n && i + n <= len; i++)
        if (!strncmp(t + i, name, n) && (i == 0 || !is_ident_char(t[i - 1])) &&
            (i + n == len || !is_ident_char(t[i + n])))
            return 1;
    return 0;
}

/*
 * shares_text: the parameter's text is also another parameter's, one macro writing
 * several ('KERN_ATTR(float)'); then, and where its text does not hold its name, the
 * declaration is the one clang expanded.
 */
static int describe_param(analysis *an, CXCursor c, int shares_text, kernel_param *p,
                          diag_sink *diag)
{
    CXString nm = clang_getCursorSpelling(c);
    p->name = xstrdup(clang_getCString(nm));
    clang_disposeString(nm);
    src_range r;
    CXSourceRange ext = clang_getCursorExtent(c);
    src_pos b, e;
    if (p->name[0] && shares_text) {
        p->decl_text = expanded_decl(c, p->name);
    } else if (parse_resolve(an->pr, clang_getRangeStart(ext), &b) == 0 &&
        parse_resolve(an->pr, clang_getRangeEnd(ext), &e) == 0 && b.file == e.file &&
        e.offset >= b.offset) {
        r.file = b.file;
        r.begin = b.offset;
        r.end = e.offset;
        size_t len;
        const char *t = range_text(an, r, &len);
        p->decl_text = has_word(t, len, p->name) ? xstrndup(t, len) : expanded_decl(c, p->name);
    }
    CXType t = clang_getCursorType(c);
    p->is_restrict = clang_isRestrictQualifiedType(t);
    CXType canon = clang_getCanonicalType(t);
    p->type_text = type_spelling(canon);
    strip_address_space(p->type_text);
    if (!p->name[0] || !p->decl_text) {
        report(diag, an, c, "kernel parameters must be named and written in the kernel's file%s%s",
               "", "");
        return 1;
    }
    int is_array = canon.kind == CXType_ConstantArray || canon.kind == CXType_IncompleteArray ||
                   canon.kind == CXType_VariableArray;
    if (is_array) { /* 'float w[9]' is a pointer parameter: 'float *w' */
        char *elem = type_spelling(clang_getArrayElementType(canon));
        strip_address_space(elem);
        free(p->type_text);
        p->type_text = xmalloc(strlen(elem) + 3);
        sprintf(p->type_text, "%s *", elem);
        free(elem);
    }
    if (canon.kind == CXType_Pointer || is_array) {
        CXType pointee = is_array ? clang_getArrayElementType(canon) : clang_getPointeeType(canon);
        char *ps = type_spelling(pointee);
        p->is_pointer = 1;
        p->is_constant_space = strstr(ps, "__constant") != NULL ||
                               (is_array && (strstr(p->decl_text, "__constant") ||
                                             !strncmp(p->decl_text, "constant ", 9)));
        p->writable = !p->is_constant_space && !clang_isConstQualifiedType(pointee);
        p->host_type = xstrdup("cl_mem");
        free(ps);
        if (clang_getCanonicalType(pointee).kind == CXType_Void) { /* a byte buffer */
            p->elem = E_U8;
            p->lanes = 1;
            p->size = 1;
        } else if (describe_value(pointee, p, 0) != 0) {
            long long sz = clang_Type_getSizeOf(pointee);
            if (sz <= 0) {
                report(diag, an, c, "parameter '%s' points to a type of unknown size%s",
                       p->name, "");
                note(diag, an, c, "the generated driver and the validation need the element "
                                  "size of every buffer: give the pointer an element type "
                                  "(for example __global uchar *)");
                return 1;
            }
            p->elem = E_U8; /* structs: compared byte for byte, filled field by field */
            p->lanes = (unsigned)sz;
            p->size = (unsigned)sz;
            describe_layout(pointee, p);
        }
        return 0;
    }
    if (describe_value(t, p, 1) != 0) {
        report(diag, an, c, "parameter '%s' has type '%s': only buffers, scalars and vectors "
                            "are supported",
               p->name, p->type_text);
        note(diag, an, c, "the generated driver passes __global and __constant pointers as "
                          "cl_mem and scalars and vectors by value; images, samplers, pipes, "
                          "events and structs passed by value have no host form there yet");
        return 1;
    }
    return 0;
}

int analyze_params(analysis *an, kernel_info *k, diag_sink *diag);

/* Do a and b start at one place of the file (one macro expansion writes both)? */
static int same_extent(analysis *an, CXCursor a, CXCursor b)
{
    src_pos pa, pb;
    return parse_resolve(an->pr, clang_getRangeStart(clang_getCursorExtent(a)), &pa) == 0 &&
           parse_resolve(an->pr, clang_getRangeStart(clang_getCursorExtent(b)), &pb) == 0 &&
           pa.file == pb.file && pa.offset == pb.offset;
}

int analyze_params(analysis *an, kernel_info *k, diag_sink *diag)
{
    int n = clang_Cursor_getNumArguments(k->cursor);
    int errors = 0;
    k->params = xcalloc((size_t)(n > 0 ? n : 1), sizeof *k->params);
    for (int i = 0; i < n; i++) {
        CXCursor c = clang_Cursor_getArgument(k->cursor, (unsigned)i);
        int shares = (i > 0 && same_extent(an, c, clang_Cursor_getArgument(k->cursor,
                                                                            (unsigned)i - 1))) ||
                     (i + 1 < n && same_extent(an, c, clang_Cursor_getArgument(k->cursor,
                                                                               (unsigned)i + 1)));
        errors += describe_param(an, c, shares, &k->params[i], diag);
        k->nparams++;
    }
    return errors;
}
