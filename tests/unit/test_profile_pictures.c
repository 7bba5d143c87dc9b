/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_profile_pictures - --profile-map's and --profile-html's drawing on a
 * hand-built profile (no device): the built-in font, the efficiency scale's
 * colours, where the map's cells go (1-D rows of whole groups, a cell per
 * group past 2^20 items, as the PNG's nplus1-map chunk says), and the page:
 * escaped source, a marker on the decision's line, the maps inline, the
 * report's text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canvas.h"
#include "profile_html.h"
#include "profile_map.h"

#include "check.h"

static unsigned inked(const canvas *c)
{
    unsigned n = 0;
    for (size_t i = 0; i < (size_t)c->w * c->h; i++)
        n += c->px[i * 3] == 0 && c->px[i * 3 + 1] == 0 && c->px[i * 3 + 2] == 0;
    return n;
}

static void font(void)
{
    canvas c;
    canvas_init(&c, 40, 12, 0xffffff);
    canvas_text(&c, 0, 0, "a", 0);
    unsigned a = inked(&c);
    canvas_free(&c);
    check(a == 14, "the font's 'a' has its 14 pixels");
    canvas_init(&c, 40, 12, 0xffffff);
    canvas_text(&c, 0, 0, "A", 0);
    check(inked(&c) == a, "an upper-case letter is drawn as its lower-case one");
    canvas_free(&c);
    canvas_init(&c, 40, 12, 0xffffff);
    canvas_text(&c, 0, 0, "\x01", 0);
    unsigned unknown = inked(&c);
    canvas_free(&c);
    canvas_init(&c, 40, 12, 0xffffff);
    canvas_text(&c, 0, 0, "?", 0);
    check(unknown > 0 && unknown == inked(&c), "a character the font lacks is drawn as '?'");
    canvas_free(&c);
    canvas_init(&c, 10, 10, 0xffffff);
    unsigned x = canvas_text(&c, 5, 5, "wide text clipped", 0);
    check(x == 5 + 17 * CANVAS_GLYPH_W && canvas_text_width("abc") == 3 * CANVAS_GLYPH_W,
          "text past the canvas's edge is clipped, its width counted");
    canvas_free(&c);
}

static void scale(void)
{
    check(profile_map_efficiency_colour(1.0) == MAP_UNIFORM &&
              profile_map_efficiency_colour(0.0) == MAP_DIVERGED &&
              profile_map_efficiency_colour(0.5) == MAP_HALF,
          "the scale: red at 0, amber at 0.5, green at 1");
    unsigned q = profile_map_efficiency_colour(0.75);
    check(q != MAP_HALF && q != MAP_UNIFORM && ((q >> 8) & 255) > ((MAP_HALF >> 8) & 255) - 40,
          "0.75 lies between amber and green");
}

/* if (cost 1) { work 10 } else { work 10 } at line 3; items alternate 1, 2. */
static void tree(ptree *t)
{
    memset(t, 0, sizeof *t);
    t->top.v = calloc(1, sizeof *t->top.v);
    t->top.n = t->top.cap = 1;
    pnode *n = &t->top.v[0];
    n->kind = PN_IF;
    n->cost = 1;
    n->narms = 2;
    n->arms = calloc(2, sizeof *n->arms);
    for (int a = 0; a < 2; a++) {
        n->arms[a].v = calloc(1, sizeof *n->arms[a].v);
        n->arms[a].n = n->arms[a].cap = 1;
        n->arms[a].v[0].kind = PN_WORK;
        n->arms[a].v[0].cost = 10;
    }
    t->c = calloc(1, sizeof *t->c);
    t->nc = t->capc = 1;
    t->c[0] = (pconstruct){.kind = PN_IF, .what = "if", .line = 3, .narms = 2, .parent = -1,
                           .split = 1, .divergence = 2};
}

static const char *meta(const profile_map_png *m)
{
    static char text[200];
    text[0] = '\0';
    for (size_t i = 8; i + 12 <= m->len; i++)
        if (!memcmp(m->png + i, "tEXtnplus1-map", 15)) { /* the key and its NUL */
            const unsigned char *n = m->png + i - 4;
            size_t len = (size_t)n[0] << 24 | (size_t)n[1] << 16 | n[2] << 8 | n[3];
            snprintf(text, sizeof text, "%.*s", (int)(len - 11), (const char *)m->png + i + 15);
        }
    return text;
}

static void pictures(void)
{
    enum { N = 128 };
    static unsigned char one = 1, two = 2;
    ptrace traces[N];
    unsigned long long ids[N];
    for (unsigned i = 0; i < N; i++) {
        traces[i] = (ptrace){i % 2 ? &two : &one, 1};
        ids[i] = i;
    }
    profile_kernel_tree k;
    k.name = "k";
    tree(&k.tree);
    profile_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.device, sizeof r.device, "<device & co>");
    r.traces = traces;
    r.ids = ids;
    r.n = N;
    r.tile = 64;
    profile_report rep = {"in<put>.cl", 1, {N, 1, 1}, 1, 32, NULL, {4096, 1, 1, 8}, N, &k, 1,
                          &r, NULL};
    char what[80];
    profile_map_describe_path(&k.tree, &traces[1], what, sizeof what);
    checkf(!strcmp(what, "if 3 else"), "the legend says what a path did (%s)", what);
    profile_map_describe_path(&k.tree, &traces[0], what, 8);
    checkf(!strcmp(what, "if 3..."), "and cuts it to its room (%s)", what);
    profile_map_png m[2];
    if (!check(profile_map_render(&rep, 0, m) == 0, "both maps render (libpng)"))
        return;
    check(m[0].len > 8 && !memcmp(m[0].png, "\x89PNG\r\n\x1a\n", 8) && m[1].len > 8,
          "the maps are PNG bytes");
    /* 128 items: rows of 32 (sqrt 12 rounded up to a whole group), 4 rows, 8 px a cell */
    checkf(!strncmp(meta(&m[0]), "x=11 y=", 7) &&
               strstr(meta(&m[0]), " w=256 h=32 zoom=8 cols=32 rows=4 span=1") != NULL &&
               !strcmp(strstr(meta(&m[0]), " w="), " w=256 h=32 zoom=8 cols=32 rows=4 span=1"),
           "a 1-D launch is wrapped in rows of whole groups (%s)", meta(&m[0]));
    check(m[0].h > 32 + 40 && m[1].h > m[0].h, "title and legend around the map, the scale "
                                                 "under the groups map");
    profile_map_png_free(m);
    rep.items = 3ull << 20; /* sampled: only the first 128 recorded */
    rep.global[0] = (size_t)rep.items;
    profile_map_render(&rep, 0, m);
    checkf(strstr(meta(&m[1]), "cols=314 rows=314 span=32") != NULL,
           "past 2^20 items a cell is a group of 32 (%s)", meta(&m[1]));
    profile_map_png_free(m);
    rep.items = N;
    rep.global[0] = N;

    const char *src = "/* <script>x()</script> & \"q\" */\n__kernel void k(int n)\n"
                      "{ if (n < 2) ; }\n";
    char *page = profile_html_page(&rep, src, strlen(src));
    check(strstr(page, "&lt;script&gt;x()&lt;/script&gt; &amp; &quot;q&quot;") != NULL &&
              !strstr(page, "<script"), "the source is escaped: no script element");
    check(strstr(page, "in&lt;put&gt;.cl") && strstr(page, "&lt;device &amp; co&gt;"),
          "the input's name and the device are escaped");
    check(strstr(page, "<tr id=\"L3\">") && strstr(page, "data-line=\"3\" data-kind=\"decision\""),
          "the decision's marker is on its line");
    check(strstr(page, "if: efficiency 0.50") != NULL,
          "the marker gives the decision's efficiency (two equal halves: 0.50)");
    check(strstr(page, "src=\"data:image/png;base64,iVBORw0KGgo") != NULL,
          "the maps are inline base64 PNG");
    check(strstr(page, "kernel k: SIMT efficiency 0.52 (width 32, 128 items)") != NULL &&
              strstr(page, "predicted after the n+1 split") != NULL,
          "the page holds the report and the predicted gains");
    check(!strstr(page, "http:") && !strstr(page, "https:") && !strstr(page, "<link"),
          "nothing outside the page");
    free(page);
    ptree_free(&k.tree);
}

int main(void)
{
    font();
    scale();
    pictures();
    return check_summary("profile pictures");
}
