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
