/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_html.c - the --profile-html page (profile_html.h). Every piece
 * of text from the input or the run is escaped; the pictures are inline
 * (data: URIs), the style is in the page: it opens with nothing else.
 */
#define _DEFAULT_SOURCE
#include "profile_html.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile_map.h"
#include "util.h"

static void put_escaped(strbuf *sb, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        switch (s[i]) {
        case '&': sb_puts(sb, "&amp;"); break;
        case '<': sb_puts(sb, "&lt;"); break;
        case '>': sb_puts(sb, "&gt;"); break;
        case '"': sb_puts(sb, "&quot;"); break;
        case '\'': sb_puts(sb, "&#39;"); break;
        case '\r': break;
        case '\0': sb_puts(sb, "\xef\xbf\xbd"); break;
        default: sb_putc(sb, s[i]);
        }
    }
}

static void put_esc(strbuf *sb, const char *s)
{
    put_escaped(sb, s, strlen(s));
}

static void put_base64(strbuf *sb, const unsigned char *p, size_t n)
{
    static const char digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        sb_putc(sb, digits[v >> 18 & 63]);
        sb_putc(sb, digits[v >> 12 & 63]);
        sb_putc(sb, i + 1 < n ? digits[v >> 6 & 63] : '=');
        sb_putc(sb, i + 2 < n ? digits[v & 63] : '=');
    }
}

static double share(double part, double whole)
{
    return whole > 0 ? part / whole : 0.0;
}

/* A construct's efficiency: a loop's lane iterations / issued, a decision's work inside. */
static double construct_efficiency(const pconstruct *pc, const pcstats *cs)
{
    if (pc->kind == PN_LOOP)
        return cs->issued_iters > 0 ? cs->lane_iters / cs->issued_iters : 1.0;
    return cs->issued_in > 0 ? cs->useful_in / cs->issued_in : 1.0;
}

static void put_marker(strbuf *sb, const profile_report *rep, unsigned k,
                       const profile_replayed *kp, unsigned c)
{
    const pconstruct *pc = &rep->ks[k].tree.c[c];
    const pcstats *cs = &kp->base.c[c];
    double e = construct_efficiency(pc, cs);
    sb_printf(sb, "<span class=\"eff\" data-kernel=\"");
    put_esc(sb, rep->ks[k].name);
    sb_printf(sb, "\" data-line=\"%u\" data-kind=\"%s\" data-efficiency=\"%.4f\" "
                  "style=\"border-left-color:#%06x\">",
              pc->line, pc->kind == PN_LOOP ? "loop" : "decision", e,
              profile_map_efficiency_colour(e));
    if (rep->nks > 1) {
        put_esc(sb, rep->ks[k].name);
        sb_puts(sb, ": ");
    }
    if (pc->helper[0]) /* a helper's: one marker per call */
        sb_printf(sb, "called at line %u, ", pc->call_line);
    if (pc->kind == PN_LOOP)
        sb_printf(sb, "%s loop: efficiency %.2f (%.0f of %.0f lane iterations); %.1f%% lost",
                  pc->what, e, cs->lane_iters, cs->issued_iters,
                  100 * share(cs->lost, kp->base.issued));
    else
        sb_printf(sb, "%s: efficiency %.2f; diverges in %.0f%% of %llu groups; %.1f%% lost",
                  pc->what, e, 100 * share((double)cs->diverged, (double)cs->reached),
                  cs->reached, 100 * share(cs->lost, kp->base.issued));
    sb_puts(sb, "</span>");
}

static void put_source(strbuf *sb, const profile_report *rep, const profile_replayed *kps,
                       const char *src, size_t len)
{
    sb_puts(sb, "<h2 id=\"source\">Source</h2>\n<p class=\"note\">Beside each decision and "
                "loop: its SIMT efficiency (a decision: the lane work done over the work issued "
                "while it runs; a loop: lane iterations over issued ones), how often it "
                "diverges and the share of the kernel's issued work lost there.</p>\n"
                "<table class=\"source\">\n");
    unsigned line = 1;
    for (size_t i = 0; i < len; i++, line++) {
        size_t end = i;
        while (end < len && src[end] != '\n')
            end++;
        sb_printf(sb, "<tr id=\"L%u\"><td class=\"ln\">%u</td><td class=\"marks\">", line,
                  line);
        for (unsigned k = 0; k < rep->nks; k++)
            for (unsigned c = 0; c < rep->ks[k].tree.nc; c++)
                if (rep->ks[k].tree.c[c].line == line)
                    put_marker(sb, rep, k, &kps[k], c);
        sb_puts(sb, "</td><td class=\"code\">");
        put_escaped(sb, src + i, end - i);
        sb_puts(sb, "</td></tr>\n");
        i = end;
    }
    sb_puts(sb, "</table>\n");
}

static void put_maps(strbuf *sb, const profile_report *rep, unsigned k)
{
    profile_map_png m[2];
    sb_puts(sb, "<h3>Maps</h3>\n");
    if (profile_map_render(rep, k, m) != 0) {
        sb_puts(sb, "<p class=\"note\">No maps: this nplus1gen was built without libpng.</p>\n");
        return;
    }
    static const char *const alt[] = {"the path each item took",
                                      "the SIMT efficiency of each SIMD group"};
    sb_puts(sb, "<div class=\"maps\">\n");
    for (int i = 0; i < 2; i++) {
        sb_printf(sb, "<figure><img class=\"map\" width=\"%u\" height=\"%u\" alt=\"kernel ",
                  m[i].w, m[i].h);
        put_esc(sb, rep->ks[k].name);
        sb_printf(sb, ": %s\" src=\"data:image/png;base64,", alt[i]);
        put_base64(sb, m[i].png, m[i].len);
        sb_printf(sb, "\"><figcaption>%s</figcaption></figure>\n", alt[i]);
    }
    sb_puts(sb, "</div>\n");
    profile_map_png_free(m);
}

static void put_report(strbuf *sb, const profile_report *rep, unsigned k,
                       const profile_replayed *kp)
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    if (f) {
        profile_print_kernel(f, rep, k, kp);
        fclose(f);
    }
    sb_puts(sb, "<h3>The report and the predicted gains</h3>\n<pre class=\"report\">");
    if (text)
        put_escaped(sb, text, n);
    sb_puts(sb, "</pre>\n");
    free(text);
}

static const char style[] =
    "body{font-family:sans-serif;margin:1.5em;color:#212121;background:#fff}"
    "h1{font-size:1.4em}h2{font-size:1.2em;margin-top:1.5em}h3{font-size:1em}"
    ".note{color:#555;max-width:60em}"
    "pre.report{background:#f5f5f5;padding:.6em;white-space:pre-wrap}"
    ".maps{display:flex;flex-wrap:wrap;gap:1em}figure{margin:0}"
    "img.map{image-rendering:pixelated;border:1px solid #ddd;max-width:100%;height:auto}"
    "figcaption{font-size:.85em;color:#555}"
    "table.source{border-collapse:collapse;font-family:monospace;font-size:13px}"
    "table.source td{padding:0 .5em;vertical-align:top}"
    "td.ln{color:#999;text-align:right;user-select:none}"
    "td.code{white-space:pre}"
    "td.marks{font-family:sans-serif;font-size:12px;min-width:10em}"
    ".eff{display:block;border-left:6px solid #999;background:#fafafa;padding:0 .4em;"
    "margin:1px 0;white-space:nowrap}";

char *profile_html_page(const profile_report *rep, const char *source, size_t len)
{
    profile_replayed *kps = xcalloc(rep->nks ? rep->nks : 1, sizeof *kps);
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                 "<meta name=\"generator\" content=\"nplus1gen --profile-html\">\n<title>");
    sb_puts(&sb, "Divergence profile of ");
    put_esc(&sb, rep->input);
    sb_printf(&sb, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>Divergence profile of ",
              style);
    put_esc(&sb, rep->input);
    sb_puts(&sb, "</h1>\n<p>On ");
    put_esc(&sb, rep->nks ? rep->res[0].device : "");
    sb_printf(&sb, ": %u-D global %zu,%zu,%zu, seed %llu, SIMD width %u.</p>\n<ul>\n", rep->dim,
              rep->global[0], rep->global[1], rep->global[2], rep->seed, rep->width);
    for (unsigned k = 0; k < rep->nks; k++) {
        profile_replay_kernel(rep, k, &kps[k]);
        sb_puts(&sb, "<li><a href=\"#kernel-");
        put_esc(&sb, rep->ks[k].name);
        sb_puts(&sb, "\">kernel ");
        put_esc(&sb, rep->ks[k].name);
        sb_printf(&sb, "</a>: SIMT efficiency %.2f</li>\n", pstats_efficiency(&kps[k].base));
    }
    sb_puts(&sb, "<li><a href=\"#source\">the source, annotated</a></li>\n</ul>\n");
    put_source(&sb, rep, kps, source, len);
    for (unsigned k = 0; k < rep->nks; k++) {
        sb_puts(&sb, "<section class=\"kernel\" id=\"kernel-");
        put_esc(&sb, rep->ks[k].name);
        sb_puts(&sb, "\">\n<h2>kernel ");
        put_esc(&sb, rep->ks[k].name);
        sb_printf(&sb, ": SIMT efficiency <span class=\"kernel-eff\">%.2f</span></h2>\n",
                  pstats_efficiency(&kps[k].base));
        put_report(&sb, rep, k, &kps[k]);
        put_maps(&sb, rep, k);
        sb_puts(&sb, "</section>\n");
    }
    sb_puts(&sb, "</body>\n</html>\n");
    for (unsigned k = 0; k < rep->nks; k++)
        profile_replayed_free(&kps[k]);
    free(kps);
    return sb_steal(&sb);
}

int profile_write_html(const profile_report *rep, const char *source, size_t len,
                       const char *file)
{
    char *page = profile_html_page(rep, source, len);
    size_t n = strlen(page);
    FILE *f = fopen(file, "wb");
    int ok = f && fwrite(page, 1, n, f) == n;
    if (f)
        ok &= fclose(f) == 0;
    free(page);
    if (!ok) {
        fprintf(stderr, "nplus1gen: error: cannot write '%s'\n", file);
        return 3;
    }
    return 0;
}
