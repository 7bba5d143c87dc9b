/* SPDX-License-Identifier: Apache-2.0 */
/*
 * canvas.h - an RGB picture in memory for --profile-map and --profile-html:
 * rectangles, text in a tiny built-in 5x9 bitmap font (digits, lower-case
 * letters, which upper-case letters are drawn as, and common punctuation),
 * and the picture as PNG bytes (libpng).
 */
#ifndef NPLUS1_CANVAS_H
#define NPLUS1_CANVAS_H

#include <stddef.h>

#define CANVAS_GLYPH_W 6   /* advance per character, pixels (5 + 1 space) */
#define CANVAS_GLYPH_H 11  /* line height, pixels (9 + 2 space) */

typedef struct canvas {
    unsigned w, h;
    unsigned char *px;     /* w * h * 3, rows top to bottom */
} canvas;

/* A w x h canvas filled with rgb. */
void canvas_init(canvas *c, unsigned w, unsigned h, unsigned rgb);
void canvas_free(canvas *c);

/* Fills the rectangle (clipped to the canvas). */
void canvas_fill(canvas *c, unsigned x, unsigned y, unsigned w, unsigned h, unsigned rgb);

/* Draws text with its top-left corner at x, y (clipped); returns the x after it. */
unsigned canvas_text(canvas *c, unsigned x, unsigned y, const char *text, unsigned rgb);

/* The width of text, pixels. */
unsigned canvas_text_width(const char *text);

/*
 * The picture as a PNG (8-bit RGB) with a tEXt chunk key = value when key
 * is not NULL. Returns 0 and a malloc'd *png of *len bytes, or -1 (built
 * without libpng, or libpng failed).
 */
int canvas_png(const canvas *c, const char *key, const char *value, unsigned char **png,
               size_t *len);

#endif
