/* UTS #58 §4.1, URL Minimal Escaping Algorithm, and the percent-decoding
 * that precedes it when a URL is formatted for display. */
#include "kernels.h"

/* One part, as uts58.kernels._python._escape_part: Hard characters (and the
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

/* As uts58.kernels._python.decode: valid UTF-8 sequences and the part's
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

/* ------------------------------------------------------------ the methods */

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

const char u58_escape_parts_doc[] =
"escape_parts(path, query, fragment, directives) -> str\n\n"
"UTS #58 §4.1 over the parts (None: absent), as uts58.kernels._python.minimal_escape.";

PyObject *
u58_Engine_escape_parts(Engine *self, PyObject *const *args, Py_ssize_t nargs)
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

const char u58_display_tail_doc[] =
"display_tail(path, query, fragment) -> str\n\n"
"The parts of a WHATWG-serialized URL (path without its leading '/', None:\n"
"absent) percent-decoded where that keeps the URL, the fragment split at\n"
"':~:' into directives, then UTS #58 §4.1 (as uts58.kernels._python.Engine.display_tail).";

/* Decode the parts (UCS4 buffers, None: NULL; decoded in place), split the
 * fragment at ":~:" and append §4.1 of them all to o. */
int
u58_display_tail_into(const Engine *e, Py_UCS4 *bufs[3], Py_ssize_t lens[3], Out *o)
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

PyObject *
u58_Engine_display_tail(Engine *self, PyObject *const *args, Py_ssize_t nargs)
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
    if (u58_display_tail_into(self, bufs, lens, &o) == 0)
        result = out_str(&o);
done:
    for (int p = 0; p < 3; p++)
        PyMem_Free(bufs[p]);
    PyMem_Free(o.buf);
    return result;
}

const char u58_decode_doc[] =
"decode(s, part) -> str\n\n"
"Percent-decoding of one part (0 path, 1 query, 2 fragment), as\n"
"uts58.kernels._python.decode.";

PyObject *
u58_Engine_decode(Engine *self, PyObject *const *args, Py_ssize_t nargs)
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
