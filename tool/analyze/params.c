/* SPDX-License-Identifier: Apache-2.0 */
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
#include "diag_at.h"
#include "nplus1rt_format.h" /* nplus1rt_elem: the kinds the runtime fills and diffs */
#include "util.h"
#include "rules.h"


typedef struct scalar_kind {
    enum CXTypeKind kind;
    int elem;
    unsigned size;
    const char *host;
} scalar_kind;

static const scalar_kind scalars[] = {
    {CXType_Char_S, NPLUS1RT_I8, 1, "cl_char"},    {CXType_SChar, NPLUS1RT_I8, 1, "cl_char"},
    {CXType_Char_U, NPLUS1RT_U8, 1, "cl_uchar"},   {CXType_UChar, NPLUS1RT_U8, 1, "cl_uchar"},
    {CXType_Short, NPLUS1RT_I16, 2, "cl_short"},   {CXType_UShort, NPLUS1RT_U16, 2, "cl_ushort"},
    {CXType_Int, NPLUS1RT_I32, 4, "cl_int"},       {CXType_UInt, NPLUS1RT_U32, 4, "cl_uint"},
    {CXType_Long, NPLUS1RT_I64, 8, "cl_long"},     {CXType_ULong, NPLUS1RT_U64, 8, "cl_ulong"},
    {CXType_Half, NPLUS1RT_F16, 2, "cl_half"},     {CXType_Float, NPLUS1RT_F32, 4, "cl_float"},
    {CXType_Double, NPLUS1RT_F64, 8, "cl_double"},
};

static const scalar_kind *find_scalar(enum CXTypeKind k)
{
    for (size_t i = 0; i < sizeof scalars / sizeof *scalars; i++)
        if (scalars[i].kind == k)
            return &scalars[i];
    return NULL;
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
    char *path;               /* the name of the struct being visited, "" at the top */
} layout;

static void add_field(layout *l, const char *name, unsigned offset, int elem, unsigned count)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 8;
        l->f = xrealloc(l->f, l->cap * sizeof *l->f);
    }
    l->f[l->n++] = (param_field){xstrdup(name), offset, elem, count};
}

static void layout_type(layout *l, CXType t, const char *name, unsigned offset, int depth);

static char *cursor_name(CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    char *d = xstrdup(clang_getCString(s));
    clang_disposeString(s);
    return d;
}

/* "prefix.name" (or "name" at the top) */
static char *join_path(const char *prefix, const char *name, const char *sep)
{
    char *d = xmalloc(strlen(prefix) + strlen(name) + strlen(sep) + 1);
    sprintf(d, "%s%s%s", prefix, *prefix ? sep : "", name);
    return d;
}

static enum CXVisitorResult visit_field(CXCursor c, CXClientData data)
{
    layout *l = data;
    long long bits = clang_Cursor_getOffsetOfField(c);
    if (bits < 0 || bits % 8 || clang_Cursor_isBitField(c)) /* bit-fields: left zero */
        return CXVisit_Continue;
    char *nm = cursor_name(c), *path = join_path(l->path, nm, ".");
    layout_type(l, clang_getCursorType(c), path, l->base + (unsigned)(bits / 8), 1);
    free(path);
    free(nm);
    return CXVisit_Continue;
}

/* Adds the scalar fields of t at offset: nested structs, arrays and vectors. */
static void layout_type(layout *l, CXType t, const char *name, unsigned offset, int depth)
{
    t = clang_getCanonicalType(t);
    if (depth > 16 || l->n > 4096)
        return;
    if (t.kind == CXType_Enum)
        t = clang_getCanonicalType(clang_getEnumDeclIntegerType(clang_getTypeDeclaration(t)));
    kernel_param v;
    memset(&v, 0, sizeof v);
    if (describe_value(t, &v, 0) == 0) {
        add_field(l, name, offset, v.elem, v.lanes);
        return;
    }
    if (t.kind == CXType_ConstantArray) {
        CXType e = clang_getArrayElementType(t);
        long long n = clang_getNumElements(t), sz = clang_Type_getSizeOf(e);
        for (long long i = 0; sz > 0 && i < n && l->n <= 4096; i++) {
            char *item = xmalloc(strlen(name) + 24);
            sprintf(item, "%s[%lld]", name, i);
            layout_type(l, e, item, offset + (unsigned)(i * sz), depth + 1);
            free(item);
        }
        return;
    }
    if (t.kind == CXType_Record) {
        unsigned saved = l->base;
        char *saved_path = l->path;
        l->base = offset;
        l->path = (char *)name;
        clang_Type_visitFields(t, visit_field, l);
        l->base = saved;
        l->path = saved_path;
    }
}

static void describe_layout(CXType pointee, kernel_param *p)
{
    layout l = {NULL, 0, 0, 0, ""};
    layout_type(&l, pointee, "", 0, 0);
    p->fields = l.f;
    p->nfields = l.n;
}

/* ---- structs by value: the host declaration the driver's header carries ---- */

typedef struct host_decl {
    strbuf sb;
    unsigned npad;            /* padding members so far: nplus1_pad0, nplus1_pad1, ... */
    int depth;
    CXCursor bad_at;          /* the field the host cannot lay out as the device does */
    const char *why;
} host_decl;

static void host_record(host_decl *h, CXType rec, unsigned indent);

static void put_indent(host_decl *h, unsigned indent)
{
    for (unsigned i = 0; i < indent; i++)
        sb_puts(&h->sb, "    ");
}

static void put_padding(host_decl *h, unsigned indent, unsigned bytes)
{
    if (!bytes)
        return;
    put_indent(h, indent);
    sb_printf(&h->sb, "cl_uchar nplus1_pad%u[%u];\n", h->npad++, bytes);
}

/* One member "TYPE name[N]...;": scalars, vectors, nested structs and unions, arrays. */
static void host_member(host_decl *h, CXCursor field, unsigned offset, unsigned indent)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(field));
    char dims[128] = "";
    while (t.kind == CXType_ConstantArray && strlen(dims) < 100) {
        sprintf(dims + strlen(dims), "[%lld]", clang_getNumElements(t));
        t = clang_getCanonicalType(clang_getArrayElementType(t));
    }
    char *name = cursor_name(field);
    kernel_param v;
    memset(&v, 0, sizeof v);
    if (t.kind == CXType_Enum)
        t = clang_getCanonicalType(clang_getEnumDeclIntegerType(clang_getTypeDeclaration(t)));
    if (describe_value(t, &v, 1) == 0) {
        if (offset % v.size) { /* a packed struct: the host type's alignment is larger */
            h->bad_at = field;
            h->why = "is not aligned on the host as on the device (a packed struct?)";
        }
        put_indent(h, indent);
        sb_printf(&h->sb, "%s %s%s;\n", v.host_type, name, dims);
        free(v.host_type);
    } else if (t.kind == CXType_Record && h->depth < 16) {
        int is_union = clang_getCursorKind(clang_getTypeDeclaration(t)) == CXCursor_UnionDecl;
        put_indent(h, indent);
        sb_puts(&h->sb, is_union ? "union {\n" : "struct {\n");
        h->depth++;
        host_record(h, t, indent + 1);
        h->depth--;
        put_indent(h, indent);
        sb_printf(&h->sb, "} %s%s;\n", name, dims);
    } else {
        h->bad_at = field;
        h->why = "has a type with no host form (pointers, bools and images cannot be "
                 "struct fields of a kernel argument)";
    }
    free(name);
}

typedef struct record_walk {
    host_decl *h;
    unsigned indent, at;      /* bytes laid out so far */
    int is_union;
} record_walk;

static enum CXVisitorResult visit_host_field(CXCursor c, CXClientData data)
{
    record_walk *w = data;
    long long bits = clang_Cursor_getOffsetOfField(c);
    if (clang_Cursor_isBitField(c) || bits < 0 || bits % 8) {
        w->h->bad_at = c;
        w->h->why = "is a bit-field: the host has no portable layout for it";
        return CXVisit_Break;
    }
    unsigned off = (unsigned)(bits / 8);
    if (!w->is_union && off > w->at)
        put_padding(w->h, w->indent, off - w->at);
    host_member(w->h, c, w->is_union ? 0 : off, w->indent);
    long long sz = clang_Type_getSizeOf(clang_getCursorType(c));
    if (!w->is_union && sz > 0)
        w->at = off + (unsigned)sz;
    return CXVisit_Continue;
}

/* The members of rec, with padding members where the device leaves holes. */
static void host_record(host_decl *h, CXType rec, unsigned indent)
{
    record_walk w = {h, indent, 0,
                     clang_getCursorKind(clang_getTypeDeclaration(rec)) == CXCursor_UnionDecl};
    clang_Type_visitFields(rec, visit_host_field, &w);
    long long size = clang_Type_getSizeOf(rec);
    if (!w.is_union && size > (long long)w.at)
        put_padding(h, indent, (unsigned)size - w.at);
}

/* "nplus1_Camera" from "Camera" or "struct Camera"; NULL for an unnamed type. */
static char *struct_tag(CXType canon)
{
    CXString s = clang_getTypeSpelling(canon);
    const char *n = clang_getCString(s);
    static const char *words[] = {"const ", "volatile ", "__private ", "struct ", "union ", NULL};
    for (int i = 0; words[i];) /* "const __private struct Camera" -> "Camera" */
        if (!strncmp(n, words[i], strlen(words[i])))
            n += strlen(words[i]), i = 0;
        else
            i++;
    int ok = *n != '\0';
    for (const char *q = n; *q; q++)
        ok &= (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') ||
              *q == '_';
    char *tag = NULL;
    if (ok) {
        tag = xmalloc(strlen(n) + 8);
        sprintf(tag, "nplus1_%s", n);
    }
    clang_disposeString(s);
    return tag;
}

/* 1 when the struct's type is declared inside the parameter's own text ("struct {..} p"). */
static int declared_in_param(const analysis *an, CXCursor param, CXType canon)
{
    CXSourceRange ext = clang_getCursorExtent(param);
    CXCursor decl = clang_getTypeDeclaration(canon);
    src_pos b, e, d;
    return parse_resolve(an->pr, clang_getRangeStart(ext), &b) == 0 &&
           parse_resolve(an->pr, clang_getRangeEnd(ext), &e) == 0 &&
           parse_resolve(an->pr, clang_getCursorLocation(decl), &d) == 0 && d.file == b.file &&
           d.offset >= b.offset && d.offset < e.offset;
}

/* A struct (or union) by value: its layout, host struct and the fields validation fills. */
static int describe_struct(const analysis *an, const char *kernel, CXCursor c, CXType canon,
                           kernel_param *p, diag_sink *diag)
{
    long long sz = clang_Type_getSizeOf(canon);
    if (declared_in_param(an, c, canon)) { /* each generated kernel would get its own type */
        diag_at(diag, an->pr, DIAG_ERROR, c, rule_name(RULE_UNSUPPORTED_ARG), "parameter '%s' has a struct type declared in the parameter "
                            "list%s", p->name, "");
        diag_at(diag, an->pr, DIAG_NOTE, c, NULL, "%s", "the generated kernels pass the argument on to helper functions, "
                          "which need one named type: declare it before the kernel (typedef "
                          "struct { ... } Name;)");
        return 1;
    }
    p->struct_tag = struct_tag(canon);
    if (!p->struct_tag) { /* unnamed: named after the kernel and the parameter */
        p->struct_tag = xmalloc(strlen(kernel) + strlen(p->name) + 16);
        sprintf(p->struct_tag, "nplus1_%s_%s", kernel, p->name);
    }
    host_decl h;
    memset(&h, 0, sizeof h);
    sb_init(&h.sb);
    int is_union = clang_getCursorKind(clang_getTypeDeclaration(canon)) == CXCursor_UnionDecl;
    sb_printf(&h.sb, "%s %s {\n", is_union ? "union" : "struct", p->struct_tag);
    host_record(&h, canon, 1);
    sb_puts(&h.sb, "};\n");
    if (h.why || sz <= 0) {
        char *f = h.why ? cursor_name(h.bad_at) : xstrdup("");
        diag_at(diag, an->pr, DIAG_ERROR, c, rule_name(RULE_UNSUPPORTED_ARG), "parameter '%s' is a struct passed by value that the host cannot "
                            "lay out as the device does: field '%s'",
               p->name, f);
        diag_at(diag, an->pr, DIAG_NOTE, h.why ? h.bad_at : c, NULL, "the field %s",
                h.why ? h.why : "has no size");
        free(f);
        sb_free(&h.sb);
        return 1;
    }
    p->host_struct = sb_steal(&h.sb);
    p->is_struct = 1;
    p->elem = NPLUS1RT_U8;
    p->lanes = (unsigned)sz;
    p->size = (unsigned)sz;
    p->host_type = xmalloc(strlen(p->struct_tag) + 16);
    sprintf(p->host_type, "const %s %s *", is_union ? "union" : "struct", p->struct_tag);
    describe_layout(canon, p);
    return 0;
}

static char *type_spelling(CXType t)
{
    CXString s = clang_getTypeSpelling(t);
    char *d = xstrdup(clang_getCString(s));
    clang_disposeString(s);
    return d;
}

/*
 * Images and samplers (from the canonical spelling: "__read_only image2d_t",
 * "sampler_t"): a cl_mem and a cl_sampler. 0 when p is one.
 */
static int describe_image(kernel_param *p)
{
    static const char *kinds[] = {"image1d_buffer", "image1d_array", "image2d_array", "image1d",
                                  "image2d", "image3d", NULL};
    const char *t = p->type_text;
    if (!strcmp(t, "sampler_t") || !strcmp(t, "const sampler_t")) {
        p->is_sampler = 1;
        p->host_type = xstrdup("cl_sampler");
        p->elem = NPLUS1RT_U8;
        p->lanes = 1;
        p->size = (unsigned)sizeof(void *);
        return 0;
    }
    for (int i = 0; kinds[i]; i++) {
        const char *at = strstr(t, kinds[i]);
        size_t n = strlen(kinds[i]);
        if (!at || strcmp(at + n, "_t"))
            continue;
        p->is_image = 1;
        p->image_kind = xstrdup(kinds[i]);
        p->writable = strstr(t, "__write_only") != NULL || strstr(t, "__read_write") != NULL;
        p->host_type = xstrdup("cl_mem");
        p->elem = NPLUS1RT_F32; /* the default format's channel; validation takes the real one */
        p->lanes = 4;
        p->size = (unsigned)sizeof(void *);
        return 0;
    }
    return -1;
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
static int describe_param(const analysis *an, const char *kernel, CXCursor c, int shares_text,
                          kernel_param *p, diag_sink *diag)
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
        diag_at(diag, an->pr, DIAG_ERROR, c, rule_name(RULE_UNSUPPORTED_ARG), "kernel parameters must be named and written in the kernel's file%s%s",
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
            p->elem = NPLUS1RT_U8;
            p->lanes = 1;
            p->size = 1;
        } else if (describe_value(pointee, p, 0) != 0) {
            long long sz = clang_Type_getSizeOf(pointee);
            if (sz <= 0) {
                diag_at(diag, an->pr, DIAG_ERROR, c, rule_name(RULE_UNSUPPORTED_ARG), "parameter '%s' points to a type of unknown size%s",
                       p->name, "");
                diag_at(diag, an->pr, DIAG_NOTE, c, NULL, "%s", "the generated driver and the validation need the element "
                                  "size of every buffer: give the pointer an element type "
                                  "(for example __global uchar *)");
                return 1;
            }
            p->elem = NPLUS1RT_U8; /* structs: compared byte for byte, filled field by field */
            p->lanes = (unsigned)sz;
            p->size = (unsigned)sz;
            describe_layout(pointee, p);
        }
        return 0;
    }
    if (canon.kind == CXType_Record)
        return describe_struct(an, kernel, c, canon, p, diag);
    if (describe_image(p) == 0)
        return 0;
    if (describe_value(t, p, 1) != 0) {
        diag_at(diag, an->pr, DIAG_ERROR, c, rule_name(RULE_UNSUPPORTED_ARG), "parameter '%s' has type '%s': only buffers, images, samplers, "
                            "scalars, vectors and structs are supported",
               p->name, p->type_text);
        diag_at(diag, an->pr, DIAG_NOTE, c, NULL, "%s", "the generated driver passes __global and __constant pointers as "
                          "cl_mem, scalars and vectors by value, images as cl_mem, samplers as "
                          "cl_sampler and structs as a pointer to a host struct; pipes, events "
                          "and queues have no host form there");
        return 1;
    }
    return 0;
}


/* Do a and b start at one place of the file (one macro expansion writes both)? */
static int same_extent(const analysis *an, CXCursor a, CXCursor b)
{
    src_pos pa, pb;
    return parse_resolve(an->pr, clang_getRangeStart(clang_getCursorExtent(a)), &pa) == 0 &&
           parse_resolve(an->pr, clang_getRangeStart(clang_getCursorExtent(b)), &pb) == 0 &&
           pa.file == pb.file && pa.offset == pb.offset;
}

int analyze_params(const analysis *an, kernel_info *k, diag_sink *diag)
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
        errors += describe_param(an, k->name, c, shares, &k->params[i], diag);
        k->nparams++;
    }
    return errors;
}

void analyze_params_free(kernel_info *k)
{
    for (unsigned p = 0; p < k->nparams; p++) {
        kernel_param *kp = &k->params[p];
        free(kp->name);
        free(kp->decl_text);
        free(kp->type_text);
        free(kp->host_type);
        for (unsigned f = 0; f < kp->nfields; f++)
            free(kp->fields[f].name);
        free(kp->fields);
        free(kp->struct_tag);
        free(kp->host_struct);
        free(kp->image_kind);
    }
    free(k->params);
    k->params = NULL;
    k->nparams = 0;
}
