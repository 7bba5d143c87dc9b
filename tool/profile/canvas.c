/* SPDX-License-Identifier: Apache-2.0 */
/*
 * canvas.c - an RGB picture in memory (canvas.h): rectangles, a tiny
 * bitmap font, PNG bytes.
 */
#include "canvas.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#ifdef NPLUS1_HAVE_PNG
#include <png.h>
#endif

/*
 * The font: 5 columns x 9 rows a glyph (rows 0-6 above the baseline, 7-8
 * the descenders), a row's bit 4 the leftmost column. Drawn for this
 * project; the comment beside each glyph shows its rows.
 */
typedef struct glyph {
    char ch;
    unsigned char rows[9];
} glyph;

static const glyph font[] = {
    {'0', {0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e, 0x00, 0x00}}, /* .###. #...# #..## #.#.# ##..# #...# .###. ..... ..... */
    {'1', {0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e, 0x00, 0x00}}, /* ..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###. ..... ..... */
    {'2', {0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f, 0x00, 0x00}}, /* .###. #...# ....# ...#. ..#.. .#... ##### ..... ..... */
    {'3', {0x0e, 0x11, 0x01, 0x06, 0x01, 0x11, 0x0e, 0x00, 0x00}}, /* .###. #...# ....# ..##. ....# #...# .###. ..... ..... */
    {'4', {0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02, 0x00, 0x00}}, /* ...#. ..##. .#.#. #..#. ##### ...#. ...#. ..... ..... */
    {'5', {0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e, 0x00, 0x00}}, /* ##### #.... ####. ....# ....# #...# .###. ..... ..... */
    {'6', {0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e, 0x00, 0x00}}, /* ..##. .#... #.... ####. #...# #...# .###. ..... ..... */
    {'7', {0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08, 0x00, 0x00}}, /* ##### ....# ...#. ..#.. .#... .#... .#... ..... ..... */
    {'8', {0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e, 0x00, 0x00}}, /* .###. #...# #...# .###. #...# #...# .###. ..... ..... */
    {'9', {0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c, 0x00, 0x00}}, /* .###. #...# #...# .#### ....# ...#. .##.. ..... ..... */
    {'a', {0x00, 0x00, 0x0e, 0x01, 0x0f, 0x11, 0x0f, 0x00, 0x00}}, /* ..... ..... .###. ....# .#### #...# .#### ..... ..... */
    {'b', {0x10, 0x10, 0x1e, 0x11, 0x11, 0x11, 0x1e, 0x00, 0x00}}, /* #.... #.... ####. #...# #...# #...# ####. ..... ..... */
    {'c', {0x00, 0x00, 0x0e, 0x10, 0x10, 0x11, 0x0e, 0x00, 0x00}}, /* ..... ..... .###. #.... #.... #...# .###. ..... ..... */
    {'d', {0x01, 0x01, 0x0f, 0x11, 0x11, 0x11, 0x0f, 0x00, 0x00}}, /* ....# ....# .#### #...# #...# #...# .#### ..... ..... */
    {'e', {0x00, 0x00, 0x0e, 0x11, 0x1f, 0x10, 0x0e, 0x00, 0x00}}, /* ..... ..... .###. #...# ##### #.... .###. ..... ..... */
    {'f', {0x06, 0x09, 0x08, 0x1c, 0x08, 0x08, 0x08, 0x00, 0x00}}, /* ..##. .#..# .#... ###.. .#... .#... .#... ..... ..... */
    {'g', {0x00, 0x00, 0x0f, 0x11, 0x11, 0x11, 0x0f, 0x01, 0x0e}}, /* ..... ..... .#### #...# #...# #...# .#### ....# .###. */
    {'h', {0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x11, 0x00, 0x00}}, /* #.... #.... #.##. ##..# #...# #...# #...# ..... ..... */
    {'i', {0x04, 0x00, 0x0c, 0x04, 0x04, 0x04, 0x0e, 0x00, 0x00}}, /* ..#.. ..... .##.. ..#.. ..#.. ..#.. .###. ..... ..... */
    {'j', {0x02, 0x00, 0x06, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c}}, /* ...#. ..... ..##. ...#. ...#. ...#. ...#. #..#. .##.. */
    {'k', {0x10, 0x10, 0x12, 0x14, 0x18, 0x14, 0x12, 0x00, 0x00}}, /* #.... #.... #..#. #.#.. ##... #.#.. #..#. ..... ..... */
    {'l', {0x0c, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e, 0x00, 0x00}}, /* .##.. ..#.. ..#.. ..#.. ..#.. ..#.. .###. ..... ..... */
    {'m', {0x00, 0x00, 0x1a, 0x15, 0x15, 0x15, 0x15, 0x00, 0x00}}, /* ..... ..... ##.#. #.#.# #.#.# #.#.# #.#.# ..... ..... */
    {'n', {0x00, 0x00, 0x16, 0x19, 0x11, 0x11, 0x11, 0x00, 0x00}}, /* ..... ..... #.##. ##..# #...# #...# #...# ..... ..... */
    {'o', {0x00, 0x00, 0x0e, 0x11, 0x11, 0x11, 0x0e, 0x00, 0x00}}, /* ..... ..... .###. #...# #...# #...# .###. ..... ..... */
    {'p', {0x00, 0x00, 0x1e, 0x11, 0x11, 0x11, 0x1e, 0x10, 0x10}}, /* ..... ..... ####. #...# #...# #...# ####. #.... #.... */
    {'q', {0x00, 0x00, 0x0f, 0x11, 0x11, 0x11, 0x0f, 0x01, 0x01}}, /* ..... ..... .#### #...# #...# #...# .#### ....# ....# */
    {'r', {0x00, 0x00, 0x16, 0x19, 0x10, 0x10, 0x10, 0x00, 0x00}}, /* ..... ..... #.##. ##..# #.... #.... #.... ..... ..... */
    {'s', {0x00, 0x00, 0x0f, 0x10, 0x0e, 0x01, 0x1e, 0x00, 0x00}}, /* ..... ..... .#### #.... .###. ....# ####. ..... ..... */
    {'t', {0x08, 0x08, 0x1c, 0x08, 0x08, 0x09, 0x06, 0x00, 0x00}}, /* .#... .#... ###.. .#... .#... .#..# ..##. ..... ..... */
    {'u', {0x00, 0x00, 0x11, 0x11, 0x11, 0x13, 0x0d, 0x00, 0x00}}, /* ..... ..... #...# #...# #...# #..## .##.# ..... ..... */
    {'v', {0x00, 0x00, 0x11, 0x11, 0x11, 0x0a, 0x04, 0x00, 0x00}}, /* ..... ..... #...# #...# #...# .#.#. ..#.. ..... ..... */
    {'w', {0x00, 0x00, 0x11, 0x11, 0x15, 0x15, 0x0a, 0x00, 0x00}}, /* ..... ..... #...# #...# #.#.# #.#.# .#.#. ..... ..... */
    {'x', {0x00, 0x00, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x00, 0x00}}, /* ..... ..... #...# .#.#. ..#.. .#.#. #...# ..... ..... */
    {'y', {0x00, 0x00, 0x11, 0x11, 0x11, 0x11, 0x0f, 0x01, 0x0e}}, /* ..... ..... #...# #...# #...# #...# .#### ....# .###. */
    {'z', {0x00, 0x00, 0x1f, 0x02, 0x04, 0x08, 0x1f, 0x00, 0x00}}, /* ..... ..... ##### ...#. ..#.. .#... ##### ..... ..... */
    {'!', {0x04, 0x04, 0x04, 0x04, 0x04, 0x00, 0x04, 0x00, 0x00}}, /* ..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#.. ..... ..... */
    {'%', {0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03, 0x00, 0x00}}, /* ##... ##..# ...#. ..#.. .#... #..## ...## ..... ..... */
    {'\'', {0x04, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}}, /* ..#.. ..#.. ..... ..... ..... ..... ..... ..... ..... */
    {'(', {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02, 0x00, 0x00}}, /* ...#. ..#.. .#... .#... .#... ..#.. ...#. ..... ..... */
    {')', {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08, 0x00, 0x00}}, /* .#... ..#.. ...#. ...#. ...#. ..#.. .#... ..... ..... */
    {'*', {0x00, 0x04, 0x15, 0x0e, 0x15, 0x04, 0x00, 0x00, 0x00}}, /* ..... ..#.. #.#.# .###. #.#.# ..#.. ..... ..... ..... */
    {'+', {0x00, 0x04, 0x04, 0x1f, 0x04, 0x04, 0x00, 0x00, 0x00}}, /* ..... ..#.. ..#.. ##### ..#.. ..#.. ..... ..... ..... */
    {',', {0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x0c, 0x04, 0x08}}, /* ..... ..... ..... ..... ..... .##.. .##.. ..#.. .#... */
    {'-', {0x00, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x00, 0x00, 0x00}}, /* ..... ..... ..... ##### ..... ..... ..... ..... ..... */
    {'.', {0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x0c, 0x00, 0x00}}, /* ..... ..... ..... ..... ..... .##.. .##.. ..... ..... */
    {'/', {0x01, 0x01, 0x02, 0x04, 0x08, 0x10, 0x10, 0x00, 0x00}}, /* ....# ....# ...#. ..#.. .#... #.... #.... ..... ..... */
    {':', {0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x0c, 0x00, 0x00, 0x00}}, /* ..... .##.. .##.. ..... .##.. .##.. ..... ..... ..... */
    {';', {0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x0c, 0x04, 0x08, 0x00}}, /* ..... .##.. .##.. ..... .##.. .##.. ..#.. .#... ..... */
    {'<', {0x02, 0x04, 0x08, 0x10, 0x08, 0x04, 0x02, 0x00, 0x00}}, /* ...#. ..#.. .#... #.... .#... ..#.. ...#. ..... ..... */
    {'=', {0x00, 0x00, 0x1f, 0x00, 0x1f, 0x00, 0x00, 0x00, 0x00}}, /* ..... ..... ##### ..... ##### ..... ..... ..... ..... */
    {'>', {0x08, 0x04, 0x02, 0x01, 0x02, 0x04, 0x08, 0x00, 0x00}}, /* .#... ..#.. ...#. ....# ...#. ..#.. .#... ..... ..... */
    {'?', {0x0e, 0x11, 0x01, 0x02, 0x04, 0x00, 0x04, 0x00, 0x00}}, /* .###. #...# ....# ...#. ..#.. ..... ..#.. ..... ..... */
    {'[', {0x0e, 0x08, 0x08, 0x08, 0x08, 0x08, 0x0e, 0x00, 0x00}}, /* .###. .#... .#... .#... .#... .#... .###. ..... ..... */
    {']', {0x0e, 0x02, 0x02, 0x02, 0x02, 0x02, 0x0e, 0x00, 0x00}}, /* .###. ...#. ...#. ...#. ...#. ...#. .###. ..... ..... */
    {'_', {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1f, 0x00}}, /* ..... ..... ..... ..... ..... ..... ..... ##### ..... */
    {'#', {0x0a, 0x0a, 0x1f, 0x0a, 0x1f, 0x0a, 0x0a, 0x00, 0x00}}, /* .#.#. .#.#. ##### .#.#. ##### .#.#. .#.#. ..... ..... */
};

static const glyph *find_glyph(char ch)
{
    ch = (char)tolower((unsigned char)ch);
    if (ch == ' ')
        return NULL;
    for (size_t i = 0; i < sizeof font / sizeof font[0]; i++)
        if (font[i].ch == ch)
            return &font[i];
    return find_glyph('?');
}

void canvas_init(canvas *c, unsigned w, unsigned h, unsigned rgb)
{
    c->w = w;
    c->h = h;
    c->px = xcalloc((size_t)w * h * 3 + 1, 1);
    canvas_fill(c, 0, 0, w, h, rgb);
}

void canvas_free(canvas *c)
{
    free(c->px);
    memset(c, 0, sizeof *c);
}

void canvas_fill(canvas *c, unsigned x, unsigned y, unsigned w, unsigned h, unsigned rgb)
{
    unsigned x1 = x + w > c->w ? c->w : x + w, y1 = y + h > c->h ? c->h : y + h;
    for (unsigned j = y; j < y1; j++)
        for (unsigned i = x; i < x1; i++) {
            unsigned char *p = c->px + ((size_t)j * c->w + i) * 3;
            p[0] = (unsigned char)(rgb >> 16);
            p[1] = (unsigned char)(rgb >> 8);
            p[2] = (unsigned char)rgb;
        }
}

unsigned canvas_text(canvas *c, unsigned x, unsigned y, const char *text, unsigned rgb)
{
    for (; *text; text++, x += CANVAS_GLYPH_W) {
        const glyph *g = find_glyph(*text);
        for (unsigned r = 0; g && r < 9; r++)
            for (unsigned b = 0; b < 5; b++)
                if (g->rows[r] & (0x10u >> b))
                    canvas_fill(c, x + b, y + r, 1, 1, rgb);
    }
    return x;
}

unsigned canvas_text_width(const char *text)
{
    return (unsigned)strlen(text) * CANVAS_GLYPH_W;
}

#ifdef NPLUS1_HAVE_PNG
static void put_bytes(png_structp png, png_bytep data, png_size_t n)
{
    sb_putn(png_get_io_ptr(png), (const char *)data, n);
}

static void flush_nothing(png_structp png)
{
    (void)png;
}

int canvas_png(const canvas *c, const char *key, const char *value, unsigned char **out,
               size_t *len)
{
    strbuf sb;
    sb_init(&sb);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    int ok = info != NULL;
    if (ok && setjmp(png_jmpbuf(png)))
        ok = 0;
    else if (ok) {
        png_set_write_fn(png, &sb, put_bytes, flush_nothing);
        png_set_IHDR(png, info, c->w, c->h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        png_text t;
        memset(&t, 0, sizeof t);
        if (key) {
            t.compression = PNG_TEXT_COMPRESSION_NONE;
            t.key = (png_charp)key;
            t.text = (png_charp)value;
            t.text_length = strlen(value);
            png_set_text(png, info, &t, 1);
        }
        png_write_info(png, info);
        for (unsigned y = 0; y < c->h; y++)
            png_write_row(png, (png_const_bytep)(c->px + (size_t)y * c->w * 3));
        png_write_end(png, NULL);
    }
    if (png)
        png_destroy_write_struct(&png, info ? &info : NULL);
    if (!ok) {
        sb_free(&sb);
        return -1;
    }
    *len = sb.len;
    *out = (unsigned char *)sb_steal(&sb);
    return 0;
}
#else
int canvas_png(const canvas *c, const char *key, const char *value, unsigned char **out,
               size_t *len)
{
    (void)c;
    (void)key;
    (void)value;
    (void)out;
    (void)len;
    return -1;
}
#endif
