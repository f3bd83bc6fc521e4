/* HTML escaping of text (linkify). */
#include "kernels.h"

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

const char u58_escape_html_doc[] =
"escape_html(s) -> str\n\n"
"html.escape(s) in one pass (the same result).";

/* The length of the entity of each ASCII character, 0 for none. */
static const unsigned char entity_length[128] = {
    ['&'] = 5, ['<'] = 4, ['>'] = 4, ['"'] = 6, ['\''] = 6,
};

/* What escaping adds for each Latin-1 character: the counting loop reads
 * a table, without a branch per character (most text has no special
 * character: this loop is all the work, and the str is returned as it is). */
static const unsigned char entity_extra[256] = {
    ['&'] = 4, ['<'] = 3, ['>'] = 3, ['"'] = 5, ['\''] = 5,
};

/* One loop per string kind: count the extra length, then copy the runs
 * between special characters whole (the output has the input's kind: an
 * entity is ASCII), instead of one generic read and write per character. */
#define COUNT_EXTRA(TYPE)                                              \
    do {                                                               \
        const TYPE *p = (const TYPE *)data;                            \
        for (Py_ssize_t i = 0; i < n; i++)                             \
            extra += entity_extra[p[i] < 256 ? p[i] : 0];              \
    } while (0)

#define WRITE_ESCAPED(TYPE)                                            \
    do {                                                               \
        const TYPE *p = (const TYPE *)data;                            \
        TYPE *o = (TYPE *)odata;                                       \
        Py_ssize_t run = 0, w = 0;                                     \
        for (Py_ssize_t i = 0; i < n; i++) {                           \
            if (p[i] >= 128 || !entity_length[p[i]])                   \
                continue;                                              \
            memcpy(o + w, p + run, (size_t)(i - run) * sizeof(TYPE));  \
            w += i - run;                                              \
            for (const char *e = entity(p[i]); *e; e++)                \
                o[w++] = (TYPE)(unsigned char)*e;                      \
            run = i + 1;                                               \
        }                                                              \
        memcpy(o + w, p + run, (size_t)(n - run) * sizeof(TYPE));     \
    } while (0)

PyObject *
u58_escape_html(PyObject *module, PyObject *s)
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
    if (kind == PyUnicode_1BYTE_KIND)
        COUNT_EXTRA(Py_UCS1);
    else if (kind == PyUnicode_2BYTE_KIND)
        COUNT_EXTRA(Py_UCS2);
    else
        COUNT_EXTRA(Py_UCS4);
    if (extra == 0)  /* the same str, as html.escape gives (a subclass: a plain copy) */
        return PyUnicode_FromObject(s);
    PyObject *out = PyUnicode_New(n + extra, PyUnicode_MAX_CHAR_VALUE(s));
    if (out == NULL)
        return NULL;
    void *odata = PyUnicode_DATA(out);
    if (PyUnicode_KIND(out) != kind) {  /* (cannot happen: the same maximum character) */
        Py_DECREF(out);
        PyErr_SetString(PyExc_SystemError, "escape_html: unexpected string kind");
        return NULL;
    }
    if (kind == PyUnicode_1BYTE_KIND)
        WRITE_ESCAPED(Py_UCS1);
    else if (kind == PyUnicode_2BYTE_KIND)
        WRITE_ESCAPED(Py_UCS2);
    else
        WRITE_ESCAPED(Py_UCS4);
    return out;
}
