/* UTS #58 §3.5.1, Termination Algorithm: where a URL ends after its host. */
#include "kernels.h"

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

/* As uts58.kernels._python.find_link_end: one forward pass over the text
 * (read in place, never copied), O(length) time, no recursion. */
Py_ssize_t
u58_find_link_end(const Engine *e, PyObject *text, Py_ssize_t start, int in_path)
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

const char u58_find_link_end_doc[] =
"find_link_end(text, start, in_path=False) -> int\n\n"
"UTS #58 §3.5.1 from start, the end of a host (and port), or from inside\n"
"a path, as uts58.kernels._python.find_link_end.";

PyObject *
u58_Engine_find_link_end(Engine *self, PyObject *const *args, Py_ssize_t nargs)
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
    return PyLong_FromSsize_t(u58_find_link_end(self, args[0], start, in_path));
}
