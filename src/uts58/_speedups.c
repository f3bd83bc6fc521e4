/* The optional C accelerator of uts58: the inner loops of UTS #58 §3.5.1
 * (termination), §4.1 (minimal escaping) and the percent-decoding that
 * precedes §4.1 in format_url, and one-call URL parsing through ada's C API.
 *
 * When this module is not built, uts58 runs the same algorithms in Python
 * (uts58.termination._find_link_end_py, uts58.escaping.PyEscaper,
 * uts58.whatwg.parse_special_href).  The tests run both on the official
 * test files and compare them on generated input.
 *
 * The module holds no data of its own: the Link_Term table, the brackets,
 * the parts of Table 3-3 and the decodable ASCII characters are all given
 * to Engine() by uts58._compiled.engine, from the same objects the Python
 * code uses, so there is one source of truth for each.
 */
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
 * uts58.escaping before it builds an Engine). */
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

/* ---------------------------------------------------------------- output */

typedef struct {
    Py_UCS4 *buf;
    Py_ssize_t len, cap;
} Out;

static int
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

static int
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
 * U+FFFD, as uts58.escaping.percent_escape does. */
static int
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

/* ------------------------------------------------------------ properties */

static inline int
link_term(const Engine *e, Py_UCS4 cp)
{
    if (cp <= 0xFFFF)
        return e->bmp[cp];
    Py_ssize_t lo = 0, hi = e->nsupp;   /* last range with first <= cp */
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (e->supp_first[mid] <= cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0 && cp <= e->supp_last[lo - 1])
        return e->supp_code[lo - 1];
    return HARD;
}

static uint32_t
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

/* ------------------------------------------------------------ UTS #58 §3.5.1 */

static inline int
is_start(const PartSyntax *syn, Py_UCS4 ch)
{
    for (int k = 0; k < syn->nstarts; k++)
        if (syn->starts[k] == ch)
            return 1;
    return 0;
}

/* The length of the first of seqs that occurs in the text at i, or 0. */
static Py_ssize_t
text_seq_at(const Seq *seqs, int count, int kind, const void *data, Py_ssize_t n, Py_ssize_t i)
{
    for (int k = 0; k < count; k++) {
        const Seq *seq = &seqs[k];
        if (seq->len > n - i)
            continue;
        Py_ssize_t j = 0;
        while (j < seq->len && PyUnicode_READ(kind, data, i + j) == seq->ch[j])
            j++;
        if (j == seq->len)
            return seq->len;
    }
    return 0;
}

/* As uts58.termination._find_link_end_py: one forward pass over the text
 * (read in place, never copied), O(length) time, no recursion. */
static Py_ssize_t
find_link_end(const Engine *e, PyObject *text, Py_ssize_t start, int in_path)
{
    const int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    const Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    uint32_t open_stack[MAX_STACK];
    Py_ssize_t depth = 0, i = start, last_safe = start;  /* lastSafe starts at the host end (D1) */
    /* in_path: start inside a path, as after its initiator (the body of an
     * opaque URL, D53) */
    int part = in_path ? PATH : -1, previous_part = -1;
    while (i < n) {
        if (part >= 0) {
            const PartSyntax *syn = &e->parts[part];
            /* A run of Include and Soft characters that start no syntax
             * sequence of the part; lastSafe moves past each Include. */
            for (; i < n; i++) {
                Py_UCS4 ch = PyUnicode_READ(kind, data, i);
                if (is_start(syn, ch))
                    break;
                int lt = link_term(e, ch);
                if (lt == INCLUDE)
                    last_safe = i + 1;
                else if (lt != SOFT)
                    break;
            }
            if (i == n)
                break;
            Py_ssize_t len;
            if (text_seq_at(syn->terminators, syn->nterminators, kind, data, n, i)) {
                previous_part = part;
                part = -1;
            } else if ((len = text_seq_at(syn->clear, syn->nclear, kind, data, n, i)) > 0) {
                i += len;
                last_safe = i;
                depth = 0;
                continue;
            }
        }
        if (part < 0) {
            int next = -1;
            Py_ssize_t len = 0;
            for (int p = 0; p < NPARTS && next < 0; p++)
                if ((len = text_seq_at(&e->parts[p].initiator, 1, kind, data, n, i)) > 0)
                    next = p;
            if (next < 0)
                return last_safe;
            /* §3.5: the directive initiator only counts after a fragment. */
            if (next == DIRECTIVE && previous_part != FRAGMENT && previous_part != DIRECTIVE)
                return last_safe;
            part = next;
            i += len;
            last_safe = i;
            depth = 0;
            continue;
        }
        /* Open, Close, Hard, or the first character of a longer sequence
         * that is not there (":" without "~:"). */
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        int lt = link_term(e, ch);
        if (lt == SOFT) {
            i++;
            continue;
        }
        if (lt == HARD)
            return last_safe;
        if (lt == OPEN) {
            if (depth == e->stack_limit)
                return last_safe;
            open_stack[depth++] = ch;
        } else if (lt == CLOSE && (depth == 0 || link_bracket(e, ch) != open_stack[--depth])) {
            return last_safe;
        }
        i++;  /* Include, or a bracket pushed or matched */
        last_safe = i;
    }
    return last_safe;
}

PyDoc_STRVAR(find_link_end_doc,
"find_link_end(text, start, in_path=False) -> int\n\n"
"UTS #58 §3.5.1 from start, the end of a host (and port), or from inside\n"
"a path, as uts58.termination._find_link_end_py.");

static PyObject *
Engine_find_link_end(Engine *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 && nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "find_link_end() takes 2 or 3 arguments");
        return NULL;
    }
    int in_path = 0;
    if (nargs == 3 && (in_path = PyObject_IsTrue(args[2])) < 0)
        return NULL;
    if (!PyUnicode_Check(args[0])) {
        PyErr_Format(PyExc_TypeError, "text must be a str, not %.100s", Py_TYPE(args[0])->tp_name);
        return NULL;
    }
    Py_ssize_t start = PyLong_AsSsize_t(args[1]);
    if (start == -1 && PyErr_Occurred())
        return NULL;
    if (start < 0 || start > PyUnicode_GET_LENGTH(args[0])) {
        PyErr_SetString(PyExc_ValueError, "start is outside text");
        return NULL;
    }
    return PyLong_FromSsize_t(find_link_end(self, args[0], start, in_path));
}

/* ------------------------------------------------------------- UTS #58 §4.1 */

/* One part, as uts58.escaping._escape_part: Hard characters (and the
 * part's terminators), Opens beyond the stack limit and unmatched Closes
 * are escaped; the final Soft of the last part too. */
static int
escape_part(const Engine *e, int part, const Py_UCS4 *s, Py_ssize_t n, int is_last, Out *o, uint32_t *open_stack)
{
    const PartSyntax *syn = &e->parts[part];
    Py_ssize_t copied = 0, depth = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 ch = s[i];
        int lt;
        if (any_seq_at(syn->terminators, syn->nterminators, s, n, i)) {
            lt = HARD;
        } else {
            if (any_seq_at(syn->clear, syn->nclear, s, n, i))
                depth = 0;
            lt = link_term(e, ch);
        }
        if (lt == INCLUDE || lt == SOFT)
            continue;
        if (lt == OPEN && depth < e->stack_limit) {
            open_stack[depth++] = ch;
            continue;
        }
        if (lt == CLOSE) {
            uint32_t last_open = depth ? open_stack[--depth] : NO_CHAR;
            if (link_bracket(e, ch) == last_open)
                continue;
        }
        if (out_slice(o, s, copied, i) < 0 || out_escape(o, ch) < 0)
            return -1;
        copied = i + 1;
    }
    if (is_last && copied < n && link_term(e, s[n - 1]) == SOFT) {
        /* The last part ends in Soft: escape it so detection reaches it. */
        if (out_slice(o, s, copied, n - 1) < 0 || out_escape(o, s[n - 1]) < 0)
            return -1;
    } else if (out_slice(o, s, copied, n) < 0) {
        return -1;
    }
    return 0;
}

typedef struct {
    int part;
    const Py_UCS4 *s;
    Py_ssize_t n;
} Piece;

static int
escape_pieces_into(const Engine *e, const Piece *pieces, Py_ssize_t count, Out *o)
{
    uint32_t open_stack[MAX_STACK];
    for (Py_ssize_t k = 0; k < count; k++) {
        const Seq *init = &e->parts[pieces[k].part].initiator;
        if (out_slice(o, init->ch, 0, init->len) < 0 ||
            escape_part(e, pieces[k].part, pieces[k].s, pieces[k].n, k == count - 1, o, open_stack) < 0)
            return -1;
    }
    return 0;
}

/* The str of an output buffer, which it frees. */
static PyObject *
out_str(Out *o)
{
    static const Py_UCS4 empty[1] = {0};
    PyObject *result = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, o->buf ? o->buf : empty, o->len);
    PyMem_Free(o->buf);
    o->buf = NULL;
    return result;
}

static PyObject *
escape_pieces(const Engine *e, const Piece *pieces, Py_ssize_t count)
{
    Out o = {NULL, 0, 0};
    if (escape_pieces_into(e, pieces, count, &o) < 0) {
        PyMem_Free(o.buf);
        return NULL;
    }
    return out_str(&o);
}

/* ------------------------------------------------------- percent-decoding */

static inline int
hexval(Py_UCS4 c)
{
    if (c >= '0' && c <= '9')
        return (int)(c - '0');
    if (c >= 'A' && c <= 'F')
        return (int)(c - 'A' + 10);
    if (c >= 'a' && c <= 'f')
        return (int)(c - 'a' + 10);
    return -1;
}

/* The byte of the escape at s[i] ("%XX"), or -1. */
static inline int
escape_at(const Py_UCS4 *s, Py_ssize_t n, Py_ssize_t i)
{
    if (i + 2 >= n || s[i] != '%')
        return -1;
    int hi = hexval(s[i + 1]), lo = hexval(s[i + 2]);
    return (hi < 0 || lo < 0) ? -1 : (hi << 4) | lo;
}

/* One UTF-8 sequence of escapes at s[i] (strict, as bytes.decode("utf-8")):
 * the code point and its length in bytes, or 0. */
static int
utf8_at(const Py_UCS4 *s, Py_ssize_t n, Py_ssize_t i, int lead, Py_UCS4 *cp)
{
    int size, lo = 0x80, hi = 0xBF;
    Py_UCS4 value;
    if (lead >= 0xC2 && lead <= 0xDF) {
        size = 2;
        value = (Py_UCS4)(lead & 0x1F);
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        size = 3;
        value = (Py_UCS4)(lead & 0x0F);
        if (lead == 0xE0)
            lo = 0xA0;  /* no overlong forms */
        else if (lead == 0xED)
            hi = 0x9F;  /* no surrogates */
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        size = 4;
        value = (Py_UCS4)(lead & 0x07);
        if (lead == 0xF0)
            lo = 0x90;
        else if (lead == 0xF4)
            hi = 0x8F;  /* nothing beyond U+10FFFF */
    } else {
        return 0;
    }
    for (int k = 1; k < size; k++) {
        int b = escape_at(s, n, i + 3 * k);
        if (b < lo || b > hi)
            return 0;
        lo = 0x80;
        hi = 0xBF;
        value = (value << 6) | (Py_UCS4)(b & 0x3F);
    }
    *cp = value;
    return size;
}

/* As uts58.escaping._decode: valid UTF-8 sequences and the part's
 * decodable ASCII characters are decoded; every other escape stays as
 * written.  Writes to out, which has room for n characters. */
static Py_ssize_t
decode(const unsigned char *decodable, const Py_UCS4 *s, Py_ssize_t n, Py_UCS4 *out)
{
    Py_ssize_t i = 0, w = 0;
    while (i < n) {
        int b = s[i] == '%' ? escape_at(s, n, i) : -1;
        if (b < 0) {
            out[w++] = s[i++];
            continue;
        }
        if (b < 0x80) {
            if (decodable[b]) {
                out[w++] = (Py_UCS4)b;
            } else {
                out[w++] = s[i];
                out[w++] = s[i + 1];
                out[w++] = s[i + 2];
            }
            i += 3;
            continue;
        }
        Py_UCS4 cp;
        int size = utf8_at(s, n, i, b, &cp);
        if (size) {
            out[w++] = cp;
            i += 3 * size;
        } else {  /* a legacy byte: stays escaped */
            out[w++] = s[i];
            out[w++] = s[i + 1];
            out[w++] = s[i + 2];
            i += 3;
        }
    }
    return w;
}

/* ------------------------------------------------------------ ada's C API
 *
 * WHATWG URL parsing stays ada's (ada-url): this type only calls the C API
 * of ada (ada_c.h) through the addresses of the functions in ada-url's own
 * compiled module, which uts58.whatwg takes from cffi after checking their
 * C signatures and the layouts of the two structs below.  One call then
 * parses and splits a URL without a Python-level round trip per getter. */

typedef struct {
    const char *data;
    size_t length;
} ada_string;

typedef struct {
    uint32_t protocol_end, username_end, host_start, host_end, port, pathname_start, search_start, hash_start;
} ada_url_components;

#define ADA_OMITTED 0xFFFFFFFFu

typedef struct {
    PyObject_HEAD
    void *(*parse)(const char *, size_t);
    bool (*is_valid)(void *);
    ada_string (*get_href)(void *);
    const ada_url_components *(*get_components)(void *);
    void (*free)(void *);
    PyObject *components;  /* the namedtuple class of the result */
} Ada;

static PyObject *
ascii_slice(const char *href, uint32_t start, uint32_t end)
{
    if (end < start) {  /* offsets checked in Ada_parse; never trust a wrap */
        PyErr_SetString(PyExc_RuntimeError, "ada returned inconsistent URL component offsets");
        return NULL;
    }
    return PyUnicode_DecodeASCII(href + start, end - start, "strict");
}

/* A special URL parsed by ada and split: offsets into its href (ASCII).
 * Absent parts have start == end == NONE_AT. */
#define NONE_AT 0xFFFFFFFFu
typedef struct {
    void *obj;                  /* ada's, freed by split_free */
    const char *href;
    uint32_t n;                 /* length of href */
    uint32_t scheme_end;        /* href[0:scheme_end] is the scheme */
    uint32_t user_start, user_end;  /* userinfo without "@", or NONE_AT */
    uint32_t host_start, host_end;
    uint32_t port_end;          /* href[host_end:port_end] is ":port" or empty */
    uint32_t path_end;          /* the pathname is href[port_end:path_end] */
    uint32_t query_start, query_end;  /* without "?" */
    uint32_t fragment_start;    /* without "#"; it ends at n */
} Split;

/* Parse `size` bytes of UTF-8 with ada: 1 split, 0 not a valid URL, -1 a
 * valid URL without "scheme://" or with offsets that are not consistent
 * (the callers leave it to the Python code), -2 an error.  Any URL
 * serialized as "scheme://..." is split; the callers only pass special ones. */
static int
split_url(const Ada *ada, const char *data, Py_ssize_t size, Split *sp)
{
    sp->obj = ada->parse(data, (size_t)size);
    if (sp->obj == NULL) {
        PyErr_NoMemory();
        return -2;
    }
    if (!ada->is_valid(sp->obj))
        return 0;
    ada_string h = ada->get_href(sp->obj);
    const ada_url_components *c = ada->get_components(sp->obj);
    const char *href = h.data;
    /* "scheme://" and every offset inside the href, compared in 64 bits so
     * that no offset ada could return wraps around. */
    const uint64_t n = h.length, pe = c->protocol_end, hs = c->host_start, he = c->host_end;
    const uint64_t ps = c->pathname_start, ss = c->search_start, fs = c->hash_start;
    if (n > 0xFFFFFFF0u || pe < 1 || pe + 2 > n || href[pe - 1] != ':' || href[pe] != '/' ||
        href[pe + 1] != '/' || hs < pe + 2 || hs > he || he > ps || ps > n ||
        (ss != ADA_OMITTED && (ss < ps || ss >= n)) || (fs != ADA_OMITTED && (fs < ps || fs >= n)))
        return -1;
    /* From here every offset is at most n < 2^32. */
    uint32_t host_start = (uint32_t)hs, end = (uint32_t)n;
    sp->href = href;
    sp->n = (uint32_t)n;
    sp->scheme_end = (uint32_t)pe - 1;
    sp->user_start = sp->user_end = NONE_AT;
    if (hs < he && href[hs] == '@') {
        sp->user_start = (uint32_t)pe + 2;
        sp->user_end = host_start++;
    }
    sp->host_start = host_start;
    sp->host_end = (uint32_t)he;
    sp->port_end = (uint32_t)ps;
    sp->fragment_start = NONE_AT;
    if (fs != ADA_OMITTED) {
        sp->fragment_start = (uint32_t)fs + 1;
        end = (uint32_t)fs;
    }
    sp->query_start = sp->query_end = NONE_AT;
    if (ss != ADA_OMITTED && ss < end) {
        sp->query_start = (uint32_t)ss + 1;
        sp->query_end = end;
        end = (uint32_t)ss;
    }
    sp->path_end = end;
    return 1;
}

static void
split_free(const Ada *ada, Split *sp)
{
    if (sp->obj != NULL)
        ada->free(sp->obj);
    sp->obj = NULL;
}

static PyObject *
ascii_slice_or_none(const char *href, uint32_t start, uint32_t end)
{
    return start == NONE_AT ? Py_NewRef(Py_None) : ascii_slice(href, start, end);
}

PyDoc_STRVAR(ada_parse_doc,
"parse(url) -> Components | None | False\n\n"
"Parse url with ada: its components (the fields of uts58.whatwg.Components),\n"
"None when it is not a valid URL, False when it is valid but not a special\n"
"URL with '//' after its scheme (the caller splits it another way).");

static PyObject *
Ada_parse(Ada *self, PyObject *url)
{
    Py_ssize_t size;
    if (!PyUnicode_Check(url)) {
        PyErr_Format(PyExc_TypeError, "url must be a str, not %.100s", Py_TYPE(url)->tp_name);
        return NULL;
    }
    const char *data = PyUnicode_AsUTF8AndSize(url, &size);
    if (data == NULL) {  /* lone surrogates: not a URL */
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
            return NULL;
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    Split sp = {0};
    PyObject *fields[8] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    PyObject *result = NULL;
    switch (split_url(self, data, size, &sp)) {
    case 0:
        result = Py_NewRef(Py_None);
        goto done;
    case -1:
        result = Py_NewRef(Py_False);  /* valid, but not split here */
        goto done;
    case -2:
        goto done;
    }
    const char *href = sp.href;
    if ((fields[0] = ascii_slice(href, 0, sp.n)) == NULL || (fields[1] = ascii_slice(href, 0, sp.scheme_end)) == NULL ||
        (fields[2] = ascii_slice_or_none(href, sp.user_start, sp.user_end)) == NULL ||
        (fields[3] = ascii_slice(href, sp.host_start, sp.host_end)) == NULL ||
        (fields[4] = sp.port_end > sp.host_end ? ascii_slice(href, sp.host_end + 1, sp.port_end)
                                               : Py_NewRef(Py_None)) == NULL ||
        (fields[5] = ascii_slice(href, sp.port_end, sp.path_end)) == NULL ||
        (fields[6] = ascii_slice_or_none(href, sp.query_start, sp.query_end)) == NULL ||
        (fields[7] = ascii_slice_or_none(href, sp.fragment_start, sp.n)) == NULL)
        goto done;
    PyObject *tuple = PyTuple_New(8);
    if (tuple == NULL)
        goto done;
    for (int k = 0; k < 8; k++) {
        PyTuple_SET_ITEM(tuple, k, fields[k]);
        fields[k] = NULL;
    }
    /* tuple.__new__(Components, fields), as Components._make does. */
    PyObject *args = PyTuple_Pack(1, tuple);
    Py_DECREF(tuple);
    if (args == NULL)
        goto done;
    result = PyTuple_Type.tp_new((PyTypeObject *)self->components, args, NULL);
    Py_DECREF(args);
done:
    for (int k = 0; k < 8; k++)
        Py_XDECREF(fields[k]);
    split_free(self, &sp);
    return result;
}

static void *
address(PyObject *value)
{
    void *p = PyLong_AsVoidPtr(value);
    if (p == NULL && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "Ada(): a function address is 0");
    return p;
}

/* Ada(parse, is_valid, get_href, get_components, free, components):
 * addresses of ada's C functions, and the Components class.  The addresses
 * are called as given: only uts58.whatwg makes an Ada, from addresses cffi
 * gives for the functions of ada_c.h after checking their signatures. */
static PyObject *
Ada_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *a[5], *components;
    if (kwds != NULL && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "Ada() takes positional arguments only");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O:Ada", &PyLong_Type, &a[0], &PyLong_Type, &a[1], &PyLong_Type, &a[2],
                          &PyLong_Type, &a[3], &PyLong_Type, &a[4], &components))
        return NULL;
    if (!PyType_Check(components) || !PyType_IsSubtype((PyTypeObject *)components, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "Ada(): components must be a tuple subclass");
        return NULL;
    }
    void *p[5];
    for (int k = 0; k < 5; k++)
        if ((p[k] = address(a[k])) == NULL)
            return NULL;
    Ada *self = (Ada *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    /* Function pointers from data pointers: what cffi hands out. */
    memcpy(&self->parse, &p[0], sizeof(void *));
    memcpy(&self->is_valid, &p[1], sizeof(void *));
    memcpy(&self->get_href, &p[2], sizeof(void *));
    memcpy(&self->get_components, &p[3], sizeof(void *));
    memcpy(&self->free, &p[4], sizeof(void *));
    self->components = Py_NewRef(components);
    return (PyObject *)self;
}

static void
Ada_dealloc(Ada *self)
{
    Py_XDECREF(self->components);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Ada_methods[] = {
    {"parse", (PyCFunction)Ada_parse, METH_O, ada_parse_doc},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject AdaType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "uts58._speedups.Ada",
    .tp_basicsize = sizeof(Ada),
    .tp_dealloc = (destructor)Ada_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "ada's URL parser called through its C API (see uts58.whatwg).",
    .tp_methods = Ada_methods,
    .tp_new = Ada_new,
};

/* ------------------------------------------------------------- the type */

/* A UCS4 copy of a str argument (NULL with an exception on failure). */
static Py_UCS4 *
str_copy(PyObject *obj, const char *name, Py_ssize_t *n)
{
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be a str, not %.100s", name, Py_TYPE(obj)->tp_name);
        return NULL;
    }
    *n = PyUnicode_GET_LENGTH(obj);
    return PyUnicode_AsUCS4Copy(obj);
}

PyDoc_STRVAR(escape_parts_doc,
"escape_parts(path, query, fragment, directives) -> str\n\n"
"UTS #58 §4.1 over the parts (None: absent), as uts58.escaping._minimal_escape.");

static PyObject *
Engine_escape_parts(Engine *self, PyObject *const *args, Py_ssize_t nargs)
{
    static const char *names[3] = {"path", "query", "fragment"};
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "escape_parts() takes 4 arguments");
        return NULL;
    }
    PyObject *directives = PySequence_Fast(args[3], "directives must be a sequence of str");
    if (directives == NULL)
        return NULL;
    Py_ssize_t ndir = PySequence_Fast_GET_SIZE(directives);
    Piece *pieces = PyMem_Calloc((size_t)ndir + 3, sizeof(Piece));
    PyObject *result = NULL;
    Py_ssize_t count = 0;
    if (pieces == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (int p = 0; p < 3; p++) {
        PyObject *value = args[p];
        if (value == Py_None && !(p == FRAGMENT && ndir > 0))
            continue;
        Piece *piece = &pieces[count++];
        piece->part = p;
        if (value == Py_None) {  /* directives imply an empty fragment */
            piece->s = NULL;
            piece->n = 0;
            continue;
        }
        if ((piece->s = str_copy(value, names[p], &piece->n)) == NULL)
            goto done;
    }
    for (Py_ssize_t k = 0; k < ndir; k++) {
        PyObject *value = PySequence_Fast_GET_ITEM(directives, k);
        Piece *piece = &pieces[count++];
        piece->part = DIRECTIVE;
        if ((piece->s = str_copy(value, "directives[]", &piece->n)) == NULL)
            goto done;
    }
    result = escape_pieces(self, pieces, count);
done:
    if (pieces != NULL) {
        for (Py_ssize_t k = 0; k < count; k++)
            PyMem_Free((void *)pieces[k].s);
        PyMem_Free(pieces);
    }
    Py_DECREF(directives);
    return result;
}

PyDoc_STRVAR(display_tail_doc,
"display_tail(path, query, fragment) -> str\n\n"
"The parts of a WHATWG-serialized URL (path without its leading '/', None:\n"
"absent) percent-decoded where that keeps the URL, the fragment split at\n"
"':~:' into directives, then UTS #58 §4.1 (as uts58.escaping.PyEscaper.display_tail).");

/* Decode the parts (UCS4 buffers, None: NULL; decoded in place), split the
 * fragment at ":~:" and append §4.1 of them all to o. */
static int
display_tail_into(const Engine *e, Py_UCS4 *bufs[3], Py_ssize_t lens[3], Out *o)
{
    const Seq *d = &e->parts[DIRECTIVE].initiator;
    Py_ssize_t count = 0, ndir = 0;
    for (int p = 0; p < 3; p++)
        if (bufs[p] != NULL)
            lens[p] = decode(e->decodable[p], bufs[p], lens[p], bufs[p]);  /* never lengthens */
    if (bufs[FRAGMENT] != NULL)  /* ":" is never decoded: ":~:" here is syntax */
        for (Py_ssize_t i = 0; i < lens[FRAGMENT]; i++)
            if (seq_at(d, bufs[FRAGMENT], lens[FRAGMENT], i)) {
                ndir++;
                i += d->len - 1;
            }
    Piece *pieces = PyMem_Calloc((size_t)ndir + 3, sizeof(Piece));
    if (pieces == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (int p = 0; p < 3; p++) {
        if (bufs[p] == NULL)
            continue;
        if (p != FRAGMENT) {
            pieces[count++] = (Piece){p, bufs[p], lens[p]};
            continue;
        }
        const Py_UCS4 *s = bufs[p];
        Py_ssize_t n = lens[p], start = 0;
        int part = FRAGMENT;
        for (Py_ssize_t i = 0; i <= n; i++) {
            if (i == n || seq_at(d, s, n, i)) {
                pieces[count++] = (Piece){part, s + start, i - start};
                part = DIRECTIVE;
                i += d->len - 1;
                start = i + 1;
            }
        }
    }
    int rc = escape_pieces_into(e, pieces, count, o);
    PyMem_Free(pieces);
    return rc;
}

static PyObject *
Engine_display_tail(Engine *self, PyObject *const *args, Py_ssize_t nargs)
{
    static const char *names[3] = {"path", "query", "fragment"};
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "display_tail() takes 3 arguments");
        return NULL;
    }
    Py_UCS4 *bufs[3] = {NULL, NULL, NULL};
    Py_ssize_t lens[3] = {0, 0, 0};
    PyObject *result = NULL;
    Out o = {NULL, 0, 0};
    for (int p = 0; p < 3; p++)
        if (args[p] != Py_None && (bufs[p] = str_copy(args[p], names[p], &lens[p])) == NULL)
            goto done;
    if (display_tail_into(self, bufs, lens, &o) == 0)
        result = out_str(&o);
done:
    for (int p = 0; p < 3; p++)
        PyMem_Free(bufs[p]);
    PyMem_Free(o.buf);
    return result;
}

/* ------------------------------------------------------------ format_url */

static const char *const SPECIAL_SCHEMES[] = {"http", "https", "ws", "wss", "ftp"};

/* Length of "scheme:" at the start of a UTF-8 URL when the scheme is one of
 * SPECIAL_SCHEMES (in any case), 0 when there is no scheme, -1 when there is
 * another scheme.  As uts58.escaping._SCHEME: a ":" followed by a digit is
 * a port, not a scheme. */
static Py_ssize_t
special_scheme(const char *u, Py_ssize_t n)
{
    Py_ssize_t i = 0;
    if (n == 0 || !((u[0] | 0x20) >= 'a' && (u[0] | 0x20) <= 'z'))
        return 0;
    while (i < n && ((u[i] >= 'a' && u[i] <= 'z') || (u[i] >= 'A' && u[i] <= 'Z') || (u[i] >= '0' && u[i] <= '9') ||
                     u[i] == '+' || u[i] == '.' || u[i] == '-'))
        i++;
    if (i == n || u[i] != ':' || (i + 1 < n && u[i + 1] >= '0' && u[i + 1] <= '9'))
        return 0;
    for (size_t k = 0; k < sizeof SPECIAL_SCHEMES / sizeof SPECIAL_SCHEMES[0]; k++)
        if ((Py_ssize_t)strlen(SPECIAL_SCHEMES[k]) == i && PyOS_strnicmp(u, SPECIAL_SCHEMES[k], (size_t)i) == 0)
            return i + 1;
    return -1;
}

/* Dotted decimal: what the WHATWG serialization of an IPv4 host looks like. */
static int
is_ipv4(const char *h, size_t n)
{
    int dots = 0, digits = 0;
    for (size_t k = 0; k < n; k++) {
        if (h[k] >= '0' && h[k] <= '9') {
            digits++;
        } else if (h[k] == '.' && digits) {
            dots++;
            digits = 0;
        } else {
            return 0;
        }
    }
    return dots == 3 && digits > 0;
}

static int
has_xn(const char *h, size_t n)
{
    for (size_t k = 0; k + 4 <= n; k++)
        if ((h[k] | 0x20) == 'x' && (h[k + 1] | 0x20) == 'n' && h[k + 2] == '-' && h[k + 3] == '-')
            return 1;
    return 0;
}

static int
out_ascii(Out *o, const char *s, size_t n)
{
    if (out_reserve(o, (Py_ssize_t)n) < 0)
        return -1;
    for (size_t k = 0; k < n; k++)
        o->buf[o->len++] = (unsigned char)s[k];
    return 0;
}

static int
out_str_chars(Out *o, PyObject *str)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(str);
    if (out_reserve(o, n) < 0)
        return -1;
    for (Py_ssize_t k = 0; k < n; k++)
        o->buf[o->len++] = PyUnicode_READ_CHAR(str, k);
    return 0;
}

/* A UCS4 copy of href[start:end] (ASCII), or NULL with an exception. */
static Py_UCS4 *
ascii_ucs4(const char *href, uint32_t start, uint32_t end)
{
    Py_UCS4 *buf = PyMem_Malloc(((size_t)(end - start) + 1) * sizeof(Py_UCS4));
    if (buf == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (uint32_t k = start; k < end; k++)
        buf[k - start] = (unsigned char)href[k];
    return buf;
}

PyDoc_STRVAR(format_url_doc,
"format_url(ada, url, known_host, known_display) -> (href, display) | None | False\n\n"
"uts58.escaping._format_url of a cleaned URL in one call: parse with ada,\n"
"show the host as known_display where it is known_host, decode and\n"
"minimally escape the rest.  None: not a valid URL.  False: a case left to\n"
"the Python code (another scheme, no host, a host to convert to Unicode).");

static PyObject *
Engine_format_url(Engine *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "format_url() takes 4 arguments");
        return NULL;
    }
    if (!PyObject_TypeCheck(args[0], &AdaType)) {
        PyErr_SetString(PyExc_TypeError, "ada must be a uts58._speedups.Ada");
        return NULL;
    }
    static const char *names[4] = {"ada", "url", "known_host", "known_display"};
    for (int k = 1; k < 4; k++)
        if (!PyUnicode_Check(args[k])) {
            PyErr_Format(PyExc_TypeError, "%s must be a str, not %.100s", names[k], Py_TYPE(args[k])->tp_name);
            return NULL;
        }
    const Ada *ada = (const Ada *)args[0];
    Py_ssize_t un, kn;
    const char *u = PyUnicode_AsUTF8AndSize(args[1], &un);
    const char *known = u == NULL ? NULL : PyUnicode_AsUTF8AndSize(args[2], &kn);
    if (known == NULL) {  /* lone surrogates: the Python code decides */
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
            return NULL;
        PyErr_Clear();
        Py_RETURN_FALSE;
    }
    Py_ssize_t after_scheme = special_scheme(u, un);
    if (after_scheme < 0)
        Py_RETURN_FALSE;
    const int show_scheme = after_scheme > 0;
    char *owned = NULL;
    const char *to_parse = u;
    Py_ssize_t parse_len = un;
    if (!show_scheme) {  /* a scheme-less URL is parsed as https */
        if ((owned = PyMem_Malloc((size_t)un + 9)) == NULL)
            return PyErr_NoMemory();
        memcpy(owned, "https://", 8);
        memcpy(owned + 8, u, (size_t)un);
        owned[un + 8] = 0;
        to_parse = owned;
        parse_len = un + 8;
    }
    Split sp = {0};
    int split = split_url(ada, to_parse, parse_len, &sp);
    PyMem_Free(owned);
    PyObject *result = NULL, *href_str = NULL, *display = NULL;
    Py_UCS4 *bufs[3] = {NULL, NULL, NULL};
    Py_ssize_t lens[3] = {0, 0, 0};
    Out o = {NULL, 0, 0};
    if (split < 1) {  /* not a URL (None), left to the Python code (False), or an error */
        result = split == -2 ? NULL : Py_NewRef(split == 0 ? Py_None : Py_False);
        goto done;
    }
    const char *href = sp.href;
    if (sp.host_start == sp.host_end ||  /* no host: the Python code says so */
        (!show_scheme && sp.user_start != NONE_AT)) {  /* userinfo without scheme: D39, in Python */
        result = Py_NewRef(Py_False);
        goto done;
    }
    const char *host = href + sp.host_start;
    size_t host_len = sp.host_end - sp.host_start;
    int is_known = (size_t)kn == host_len && memcmp(host, known, host_len) == 0;
    if (!is_known && host[0] != '[' && !is_ipv4(host, host_len) && has_xn(host, host_len)) {
        result = Py_NewRef(Py_False);  /* ToUnicode: the Python code calls ada for it */
        goto done;
    }
    /* WHATWG serializes an absent path of a special URL as "/": keep the
     * input's choice.  After the slashes that follow the scheme, a "/" or
     * "\\" before any "?" or "#" means the URL has a path of its own. */
    Py_ssize_t k = after_scheme;
    while (k < un && (u[k] == '/' || u[k] == '\\'))
        k++;
    while (k < un && u[k] != '/' && u[k] != '\\' && u[k] != '?' && u[k] != '#')
        k++;
    int has_path = k < un && (u[k] == '/' || u[k] == '\\');
    uint32_t ps = sp.port_end, end = sp.path_end;
    if (sp.fragment_start != NONE_AT) {
        if ((bufs[FRAGMENT] = ascii_ucs4(href, sp.fragment_start, sp.n)) == NULL)
            goto done;
        lens[FRAGMENT] = sp.n - sp.fragment_start;
    }
    if (sp.query_start != NONE_AT) {
        if ((bufs[QUERY] = ascii_ucs4(href, sp.query_start, sp.query_end)) == NULL)
            goto done;
        lens[QUERY] = sp.query_end - sp.query_start;
    }
    if (has_path || !(end - ps == 1 && href[ps] == '/')) {
        uint32_t from = ps < end && href[ps] == '/' ? ps + 1 : ps;  /* without the leading "/" */
        if ((bufs[PATH] = ascii_ucs4(href, from, end)) == NULL)
            goto done;
        lens[PATH] = end - from;
    }
    if ((show_scheme && out_ascii(&o, href, sp.scheme_end + 3) < 0) ||  /* "scheme://" */
        (sp.user_start != NONE_AT && out_ascii(&o, href + sp.user_start, sp.user_end - sp.user_start + 1) < 0) ||
        (is_known ? out_str_chars(&o, args[3]) : out_ascii(&o, host, host_len)) < 0 ||
        out_ascii(&o, href + sp.host_end, ps - sp.host_end) < 0 ||  /* ":port" */
        display_tail_into(self, bufs, lens, &o) < 0)
        goto done;
    if ((display = out_str(&o)) == NULL || (href_str = PyUnicode_DecodeASCII(href, sp.n, "strict")) == NULL)
        goto done;
    result = PyTuple_Pack(2, href_str, display);
done:
    split_free(ada, &sp);
    for (int p = 0; p < 3; p++)
        PyMem_Free(bufs[p]);
    PyMem_Free(o.buf);
    Py_XDECREF(href_str);
    Py_XDECREF(display);
    return result;
}

PyDoc_STRVAR(decode_doc,
"decode(s, part) -> str\n\n"
"Percent-decoding of one part (0 path, 1 query, 2 fragment), as\n"
"uts58.escaping._decode.");

static PyObject *
Engine_decode(Engine *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "decode() takes 2 arguments");
        return NULL;
    }
    Py_ssize_t n;
    long part = PyLong_AsLong(args[1]);
    if (part == -1 && PyErr_Occurred())
        return NULL;
    if (part < 0 || part > 2) {
        PyErr_SetString(PyExc_ValueError, "part must be 0, 1 or 2");
        return NULL;
    }
    Py_UCS4 *buf = str_copy(args[0], "s", &n);
    if (buf == NULL)
        return NULL;
    Py_ssize_t w = decode(self->decodable[part], buf, n, buf);
    PyObject *result = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, buf, w);
    PyMem_Free(buf);
    return result;
}

/* ------------------------------------------------------- construction */

static int
fill_seq(Seq *seq, PyObject *str)
{
    if (!PyUnicode_Check(str) || PyUnicode_GET_LENGTH(str) < 1 || PyUnicode_GET_LENGTH(str) > SEQLEN) {
        PyErr_SetString(PyExc_ValueError, "syntax sequences must be str of 1 to 4 characters");
        return -1;
    }
    seq->len = PyUnicode_GET_LENGTH(str);
    for (Py_ssize_t k = 0; k < seq->len; k++)
        seq->ch[k] = PyUnicode_READ_CHAR(str, k);
    return 0;
}

static int
fill_seqs(Seq *seqs, int *count, PyObject *tuple)
{
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) > MAXSEQ) {
        PyErr_SetString(PyExc_ValueError, "syntax sequences must be a tuple of at most 4 str");
        return -1;
    }
    *count = (int)PyTuple_GET_SIZE(tuple);
    for (int k = 0; k < *count; k++)
        if (fill_seq(&seqs[k], PyTuple_GET_ITEM(tuple, k)) < 0)
            return -1;
    return 0;
}

/* A tuple of ints as a new uint32_t array. */
static uint32_t *
u32_array(PyObject *tuple, Py_ssize_t expected)
{
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != expected) {
        PyErr_SetString(PyExc_ValueError, "table columns must be tuples of equal length");
        return NULL;
    }
    uint32_t *a = PyMem_Calloc((size_t)expected + 1, sizeof(uint32_t));
    if (a == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t k = 0; k < expected; k++) {
        unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(tuple, k));
        if (PyErr_Occurred() || v > 0x10FFFF) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "table values must be code points");
            PyMem_Free(a);
            return NULL;
        }
        a[k] = (uint32_t)v;
    }
    return a;
}

static void
Engine_dealloc(Engine *self)
{
    PyMem_Free(self->supp_first);
    PyMem_Free(self->supp_last);
    PyMem_Free(self->supp_code);
    PyMem_Free(self->br_close);
    PyMem_Free(self->br_open);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Engine(bmp, supp_first, supp_last, supp_code, br_close, br_open,
 *         stack_limit, parts, decodable)
 *   bmp: bytes of 65536 Link_Term codes; supp_*: tuples of the sorted
 *   supplementary ranges; br_*: tuples, Close -> Open, sorted by Close;
 *   parts: 4 tuples (initiator, terminators, clear_stack_open) in the
 *   order path, query, fragment, directive; decodable: 3 str of ASCII. */
static PyObject *
Engine_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *bmp, *sf, *sl, *sc, *bc, *bo, *parts, *decodable;
    Py_ssize_t stack_limit;
    if (kwds != NULL && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "Engine() takes positional arguments only");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "SO!O!O!O!O!nO!O!:Engine", &bmp, &PyTuple_Type, &sf, &PyTuple_Type, &sl,
                          &PyTuple_Type, &sc, &PyTuple_Type, &bc, &PyTuple_Type, &bo, &stack_limit,
                          &PyTuple_Type, &parts, &PyTuple_Type, &decodable))
        return NULL;
    if (PyBytes_GET_SIZE(bmp) != 0x10000 || stack_limit < 0 || stack_limit > MAX_STACK || PyTuple_GET_SIZE(parts) != NPARTS ||
        PyTuple_GET_SIZE(decodable) != 3) {
        PyErr_SetString(PyExc_ValueError, "Engine(): malformed tables");
        return NULL;
    }
    Engine *self = (Engine *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    const unsigned char *codes = (const unsigned char *)PyBytes_AS_STRING(bmp);
    for (Py_ssize_t k = 0; k < 0x10000; k++)
        if (codes[k] > CLOSE) {
            PyErr_SetString(PyExc_ValueError, "Engine(): Link_Term code out of range");
            goto fail;
        }
    memcpy(self->bmp, codes, 0x10000);
    self->nsupp = PyTuple_GET_SIZE(sf);
    if ((self->supp_first = u32_array(sf, self->nsupp)) == NULL ||
        (self->supp_last = u32_array(sl, self->nsupp)) == NULL)
        goto fail;
    uint32_t *sc32 = u32_array(sc, self->nsupp);
    if (sc32 == NULL)
        goto fail;
    self->supp_code = PyMem_Malloc((size_t)self->nsupp + 1);
    if (self->supp_code == NULL) {
        PyMem_Free(sc32);
        PyErr_NoMemory();
        goto fail;
    }
    for (Py_ssize_t k = 0; k < self->nsupp; k++)
        self->supp_code[k] = (unsigned char)sc32[k];
    for (Py_ssize_t k = 0; k < self->nsupp; k++)
        if (sc32[k] > CLOSE) {
            PyMem_Free(sc32);
            PyErr_SetString(PyExc_ValueError, "Engine(): Link_Term code out of range");
            goto fail;
        }
    PyMem_Free(sc32);
    self->nbrackets = PyTuple_GET_SIZE(bc);
    if ((self->br_close = u32_array(bc, self->nbrackets)) == NULL ||
        (self->br_open = u32_array(bo, self->nbrackets)) == NULL)
        goto fail;
    for (Py_ssize_t k = 1; k < self->nsupp; k++)
        if (self->supp_first[k] <= self->supp_last[k - 1])
            goto unsorted;
    for (Py_ssize_t k = 1; k < self->nbrackets; k++)
        if (self->br_close[k] <= self->br_close[k - 1])
            goto unsorted;
    self->stack_limit = stack_limit;
    for (int p = 0; p < NPARTS; p++) {
        PyObject *row = PyTuple_GET_ITEM(parts, p);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != 3) {
            PyErr_SetString(PyExc_ValueError, "Engine(): a part is (initiator, terminators, clear_stack_open)");
            goto fail;
        }
        if (fill_seq(&self->parts[p].initiator, PyTuple_GET_ITEM(row, 0)) < 0 ||
            fill_seqs(self->parts[p].terminators, &self->parts[p].nterminators, PyTuple_GET_ITEM(row, 1)) < 0 ||
            fill_seqs(self->parts[p].clear, &self->parts[p].nclear, PyTuple_GET_ITEM(row, 2)) < 0)
            goto fail;
        PartSyntax *syn = &self->parts[p];
        for (int k = 0; k < syn->nterminators; k++)
            syn->starts[syn->nstarts++] = syn->terminators[k].ch[0];
        for (int k = 0; k < syn->nclear; k++)
            syn->starts[syn->nstarts++] = syn->clear[k].ch[0];
    }
    for (int p = 0; p < 3; p++) {
        PyObject *chars = PyTuple_GET_ITEM(decodable, p);
        if (!PyUnicode_Check(chars)) {
            PyErr_SetString(PyExc_ValueError, "Engine(): decodable characters must be str");
            goto fail;
        }
        for (Py_ssize_t k = 0; k < PyUnicode_GET_LENGTH(chars); k++) {
            Py_UCS4 c = PyUnicode_READ_CHAR(chars, k);
            if (c >= 128) {
                PyErr_SetString(PyExc_ValueError, "Engine(): decodable characters must be ASCII");
                goto fail;
            }
            self->decodable[p][c] = 1;
        }
    }
    return (PyObject *)self;
unsorted:
    PyErr_SetString(PyExc_ValueError, "Engine(): ranges and brackets must be sorted");
fail:
    Py_DECREF(self);
    return NULL;
}

static PyMethodDef Engine_methods[] = {
    {"find_link_end", (PyCFunction)(void (*)(void))Engine_find_link_end, METH_FASTCALL, find_link_end_doc},
    {"format_url", (PyCFunction)(void (*)(void))Engine_format_url, METH_FASTCALL, format_url_doc},
    {"escape_parts", (PyCFunction)(void (*)(void))Engine_escape_parts, METH_FASTCALL, escape_parts_doc},
    {"display_tail", (PyCFunction)(void (*)(void))Engine_display_tail, METH_FASTCALL, display_tail_doc},
    {"decode", (PyCFunction)(void (*)(void))Engine_decode, METH_FASTCALL, decode_doc},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "uts58._speedups.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "UTS #58 §3.5.1, §4.1 and percent-decoding over one Unicode version's tables.",
    .tp_methods = Engine_methods,
    .tp_new = Engine_new,
};

/* ------------------------------------------------------------ HTML text */

/* html.escape(s) (quote=True) in one pass: & < > " ' become &amp; &lt;
 * &gt; &quot; &#x27;.  linkify escapes all the text between links with it,
 * where html.escape makes five passes. */
static const char *
entity(Py_UCS4 ch)
{
    switch (ch) {
    case '&':
        return "&amp;";
    case '<':
        return "&lt;";
    case '>':
        return "&gt;";
    case '"':
        return "&quot;";
    case '\'':
        return "&#x27;";
    default:
        return NULL;
    }
}

PyDoc_STRVAR(escape_html_doc,
"escape_html(s) -> str\n\n"
"html.escape(s) in one pass (the same result).");

static PyObject *
escape_html(PyObject *module, PyObject *s)
{
    (void)module;
    if (!PyUnicode_Check(s)) {
        PyErr_Format(PyExc_TypeError, "s must be a str, not %.100s", Py_TYPE(s)->tp_name);
        return NULL;
    }
    const int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    const Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    Py_ssize_t extra = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        const char *e = entity(PyUnicode_READ(kind, data, i));
        if (e != NULL)
            extra += (Py_ssize_t)strlen(e) - 1;
    }
    if (extra == 0)  /* the same str, as html.escape gives (a subclass: a plain copy) */
        return PyUnicode_FromObject(s);
    PyObject *out = PyUnicode_New(n + extra, PyUnicode_MAX_CHAR_VALUE(s));
    if (out == NULL)
        return NULL;
    const int okind = PyUnicode_KIND(out);
    void *odata = PyUnicode_DATA(out);
    Py_ssize_t w = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        const char *e = entity(ch);
        if (e == NULL) {
            PyUnicode_WRITE(okind, odata, w++, ch);
            continue;
        }
        for (; *e; e++)
            PyUnicode_WRITE(okind, odata, w++, (Py_UCS4)(unsigned char)*e);
    }
    return out;
}

static PyMethodDef module_methods[] = {
    {"escape_html", (PyCFunction)escape_html, METH_O, escape_html_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "uts58._speedups",
    .m_doc = "Compiled inner loops of uts58.escaping (optional).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    if (PyType_Ready(&EngineType) < 0 || PyType_Ready(&AdaType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&speedups_module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddObjectRef(m, "Engine", (PyObject *)&EngineType) < 0 ||
        PyModule_AddObjectRef(m, "Ada", (PyObject *)&AdaType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
