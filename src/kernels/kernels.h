/* Shared by the C kernels of uts58 (uts58.kernels._c); see module.c.
 *
 * Types, the Link_Term lookups and the output buffer are here, inline, so
 * that the loops of each job's file (termination.c, escaping.c, ada.c,
 * html.c) compile as tight as they did in one file. */
#ifndef UTS58_KERNELS_H
#define UTS58_KERNELS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define NPARTS 4            /* path, query, fragment, fragment directive */
#define MAXSEQ 4            /* syntax sequences of one kind in one part */
#define SEQLEN 4            /* longest syntax sequence (":~:" is 3) */
#define NO_CHAR 0x110000u   /* "None" for brackets and the open stack */
#define MAX_STACK 1024      /* largest open stack limit Engine() accepts */

/* Link_Term codes, in the order of the generated tables (checked by
 * uts58.kernels before it builds an Engine). */
enum { INCLUDE = 0, HARD = 1, SOFT = 2, OPEN = 3, CLOSE = 4 };
enum { PATH = 0, QUERY = 1, FRAGMENT = 2, DIRECTIVE = 3 };

typedef struct {
    Py_UCS4 ch[SEQLEN];
    Py_ssize_t len;
} Seq;

typedef struct {
    Seq initiator;
    Seq terminators[MAXSEQ];
    int nterminators;
    Seq clear[MAXSEQ];
    int nclear;
    Py_UCS4 starts[2 * MAXSEQ];  /* first characters of the sequences above */
    int nstarts;
} PartSyntax;

typedef struct {
    PyObject_HEAD
    unsigned char bmp[0x10000];     /* Link_Term code of each BMP code point */
    Py_ssize_t nsupp;               /* supplementary ranges, sorted */
    uint32_t *supp_first, *supp_last;
    unsigned char *supp_code;
    Py_ssize_t nbrackets;           /* Close -> Open, sorted by Close */
    uint32_t *br_close, *br_open;
    Py_ssize_t stack_limit;
    PartSyntax parts[NPARTS];
    unsigned char decodable[3][128]; /* path, query, fragment */
} Engine;


typedef struct {
    int part;
    const Py_UCS4 *s;
    Py_ssize_t n;
} Piece;

/* ---------------------------------------------------------------- output */

typedef struct {
    Py_UCS4 *buf;
    Py_ssize_t len, cap;
} Out;

static inline int
out_reserve(Out *o, Py_ssize_t extra)
{
    if (o->len + extra <= o->cap)
        return 0;
    Py_ssize_t cap = o->cap ? o->cap : 64;
    while (cap < o->len + extra) {
        if (cap > PY_SSIZE_T_MAX / 2 / (Py_ssize_t)sizeof(Py_UCS4)) {
            PyErr_NoMemory();
            return -1;
        }
        cap *= 2;
    }
    Py_UCS4 *buf = PyMem_Realloc(o->buf, (size_t)cap * sizeof(Py_UCS4));
    if (buf == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    o->buf = buf;
    o->cap = cap;
    return 0;
}

static inline int
out_char(Out *o, Py_UCS4 ch)
{
    if (o->len == o->cap && out_reserve(o, 1) < 0)
        return -1;
    o->buf[o->len++] = ch;
    return 0;
}

static inline int
out_slice(Out *o, const Py_UCS4 *s, Py_ssize_t start, Py_ssize_t end)
{
    if (end <= start)
        return 0;
    if (out_reserve(o, end - start) < 0)
        return -1;
    memcpy(o->buf + o->len, s + start, (size_t)(end - start) * sizeof(Py_UCS4));
    o->len += end - start;
    return 0;
}

static const char HEX[] = "0123456789ABCDEF";

/* %XX escapes of the UTF-8 bytes of ch; a lone surrogate is written as
 * U+FFFD, as uts58.kernels._python.percent_escape does. */
static inline int
out_escape(Out *o, Py_UCS4 ch)
{
    unsigned char b[4];
    int n;
    if (ch >= 0xD800 && ch <= 0xDFFF)
        ch = 0xFFFD;
    if (ch < 0x80) {
        b[0] = (unsigned char)ch;
        n = 1;
    } else if (ch < 0x800) {
        b[0] = (unsigned char)(0xC0 | (ch >> 6));
        b[1] = (unsigned char)(0x80 | (ch & 0x3F));
        n = 2;
    } else if (ch < 0x10000) {
        b[0] = (unsigned char)(0xE0 | (ch >> 12));
        b[1] = (unsigned char)(0x80 | ((ch >> 6) & 0x3F));
        b[2] = (unsigned char)(0x80 | (ch & 0x3F));
        n = 3;
    } else {
        b[0] = (unsigned char)(0xF0 | (ch >> 18));
        b[1] = (unsigned char)(0x80 | ((ch >> 12) & 0x3F));
        b[2] = (unsigned char)(0x80 | ((ch >> 6) & 0x3F));
        b[3] = (unsigned char)(0x80 | (ch & 0x3F));
        n = 4;
    }
    if (out_reserve(o, 3 * n) < 0)
        return -1;
    for (int k = 0; k < n; k++) {
        o->buf[o->len++] = '%';
        o->buf[o->len++] = (Py_UCS4)HEX[b[k] >> 4];
        o->buf[o->len++] = (Py_UCS4)HEX[b[k] & 0xF];
    }
    return 0;
}

/* The str of an output buffer, which it frees. */
static inline PyObject *
out_str(Out *o)
{
    static const Py_UCS4 empty[1] = {0};
    PyObject *result = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, o->buf ? o->buf : empty, o->len);
    PyMem_Free(o->buf);
    o->buf = NULL;
    return result;
}

/* ------------------------------------------------------------ properties */

/* How many of the sorted range starts `firsts[0..n)` are <= c: the range
 * that may hold c is the one before that count (if any). */
static inline Py_ssize_t
ranges_up_to(const uint32_t *firsts, Py_ssize_t n, Py_UCS4 c)
{
    Py_ssize_t lo = 0, hi = n;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (firsts[mid] <= c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static inline int
link_term(const Engine *e, Py_UCS4 cp)
{
    if (cp <= 0xFFFF)
        return e->bmp[cp];
    Py_ssize_t k = ranges_up_to(e->supp_first, e->nsupp, cp);
    if (k > 0 && cp <= e->supp_last[k - 1])
        return e->supp_code[k - 1];
    return HARD;
}

static inline uint32_t
link_bracket(const Engine *e, Py_UCS4 cp)
{
    Py_ssize_t lo = 0, hi = e->nbrackets;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (e->br_close[mid] < cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < e->nbrackets && e->br_close[lo] == cp)
        return e->br_open[lo];
    return NO_CHAR;
}

static inline int
seq_at(const Seq *seq, const Py_UCS4 *s, Py_ssize_t n, Py_ssize_t i)
{
    if (seq->len > n - i)
        return 0;
    for (Py_ssize_t k = 0; k < seq->len; k++)
        if (s[i + k] != seq->ch[k])
            return 0;
    return 1;
}

static inline int
any_seq_at(const Seq *seqs, int count, const Py_UCS4 *s, Py_ssize_t n, Py_ssize_t i)
{
    for (int k = 0; k < count; k++)
        if (seq_at(&seqs[k], s, n, i))
            return 1;
    return 0;
}

/* ------------------------------------------------------------ across files */

extern PyTypeObject u58_EngineType;
extern PyTypeObject u58_AdaType;
extern PyTypeObject u58_ScanType;
extern PyTypeObject u58_SlotMakerType;
extern PyTypeObject u58_HostsType;
extern PyTypeObject u58_RunStartType;
PyObject *u58_scan_classes(void);  /* scan.c: the names of Scan()'s classes */

/* ada.c, for hosts.c */
PyObject *u58_ada_domain(PyObject *ada, PyObject *name);
PyObject *u58_ada_to_unicode(PyObject *ada, PyObject *ascii);

/* module.c */
uint32_t *u58_u32_array(PyObject *tuple, Py_ssize_t expected);

/* termination.c */
extern const char u58_find_link_end_doc[];
PyObject *u58_Engine_find_link_end(Engine *self, PyObject *const *args, Py_ssize_t nargs);
Py_ssize_t u58_find_link_end(const Engine *e, PyObject *text, Py_ssize_t start, int in_path);

/* escaping.c */
extern const char u58_escape_parts_doc[], u58_display_tail_doc[], u58_decode_doc[];
PyObject *u58_Engine_escape_parts(Engine *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *u58_Engine_display_tail(Engine *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *u58_Engine_decode(Engine *self, PyObject *const *args, Py_ssize_t nargs);
int u58_display_tail_into(const Engine *e, Py_UCS4 *bufs[3], Py_ssize_t lens[3], Out *o);

/* html.c */
extern const char u58_escape_html_doc[];
PyObject *u58_escape_html(PyObject *module, PyObject *s);

#endif
