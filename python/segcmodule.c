/* SPDX-License-Identifier: MIT */
/* segcmodule.c - the Python module `segc`: libsegc's check, build and
 * model for CPython (python/segc.pyi says what each takes and gives).
 *
 * Each call runs on a libsegc context of its own, so calls on different
 * threads share nothing; the GIL is released while libsegc works, and held
 * while the arguments are read and the result is made into Python objects.
 * A context a call is done with is reset and kept for the next call, with
 * the memory it holds (segc_context_reset). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "libsegc.h"

static PyObject *segc_error;   /* segc.Error */
static PyObject *result_type;  /* segc.Result, a named tuple */
static PyObject *json_loads;   /* json.loads, for the model */

/* ---- arguments -------------------------------------------------------------- */

/* What a call was given, as libsegc takes it. */
typedef struct Call {
    const char *name;
    const char *text;
    Py_ssize_t len;
    Py_buffer buf; /* text, when bytes were given */
    PyObject *str; /* text, when str was given (its UTF-8 is kept there) */
    const char **argv;
    PyObject **owned; /* the argv strings' objects */
    int argc;
} Call;

static void call_free(Call *c)
{
    if (c->buf.obj)
        PyBuffer_Release(&c->buf);
    for (int i = 0; i < c->argc; i++)
        Py_XDECREF(c->owned[i]);
    PyMem_Free(c->argv);
    PyMem_Free(c->owned);
}

/* Appends the strings of sequence `seq` to c->argv, each after `flag`
 * (NULL: none). */
static int add_args(Call *c, PyObject *seq, const char *flag, const char *what)
{
    if (PyUnicode_Check(seq) || PyBytes_Check(seq)) {
        PyErr_Format(PyExc_TypeError, "%s is a sequence of strings, not one string", what);
        return -1;
    }
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast), per = flag ? 2 : 1;
    const char **argv = PyMem_Realloc(c->argv, (size_t)(c->argc + n * per + 1) * sizeof *argv);
    PyObject **owned = argv ? PyMem_Realloc(c->owned, (size_t)(c->argc + n * per + 1) * sizeof *owned) : NULL;
    if (argv)
        c->argv = argv;
    if (owned)
        c->owned = owned;
    if (!argv || !owned) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        if (!PyUnicode_Check(item)) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_TypeError, "%s holds strings, not %s", what, Py_TYPE(item)->tp_name);
            return -1;
        }
        if (flag) {
            c->owned[c->argc] = NULL;
            c->argv[c->argc++] = flag;
        }
        const char *s = PyUnicode_AsUTF8(item);
        if (!s) {
            Py_DECREF(fast);
            return -1;
        }
        Py_INCREF(item);
        c->owned[c->argc] = item;
        c->argv[c->argc++] = s;
    }
    Py_DECREF(fast);
    return 0;
}

static int parse_call(PyObject *args, PyObject *kw, Call *c)
{
    static char *keys[] = {"text", "name", "args", "include", NULL};
    PyObject *text, *opts = NULL, *include = NULL;
    *c = (Call){.name = "spec.yaml"};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$sOO", keys, &text, &c->name, &opts, &include))
        return -1;
    if (PyUnicode_Check(text)) {
        c->text = PyUnicode_AsUTF8AndSize(text, &c->len);
        if (!c->text)
            return -1;
        Py_INCREF(text);
        c->str = text;
    } else if (PyObject_GetBuffer(text, &c->buf, PyBUF_SIMPLE) == 0) {
        c->text = c->buf.buf;
        c->len = c->buf.len;
    } else {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "text is str or bytes, not %s", Py_TYPE(text)->tp_name);
        return -1;
    }
    if ((opts && add_args(c, opts, NULL, "args") < 0) || (include && add_args(c, include, "-I", "include") < 0))
        return -1;
    return 0;
}

/* ---- libsegc's run ----------------------------------------------------------------- */

typedef segc_result *Run(segc_context *, const char *, const char *, size_t);

/* The contexts no call is using.  They are taken and given back with the
 * GIL held, which guards the list. */
enum { IDLE_MAX = 8 };
static segc_context *idle[IDLE_MAX];
static int nidle;

/* Runs `run` over the call without the GIL.  NULL with an exception set:
 * the options were refused (ValueError) or libsegc failed. */
static segc_result *run_call(Run *run, PyObject *args, PyObject *kw)
{
    Call c;
    segc_result *r = NULL;
    if (parse_call(args, kw, &c) < 0)
        goto done;
    segc_context *ctx = nidle ? idle[--nidle] : segc_context_new();
    if (!ctx) {
        PyErr_NoMemory();
        goto done;
    }
    if (segc_context_options(ctx, c.argc, c.argv) < 0) {
        PyErr_SetString(PyExc_ValueError, segc_context_error(ctx));
    } else {
        Py_BEGIN_ALLOW_THREADS
        r = run(ctx, c.name, c.text, (size_t)c.len);
        Py_END_ALLOW_THREADS
        if (!r)
            PyErr_Format(PyExc_RuntimeError, "segc: %s", segc_context_error(ctx));
    }
    if (nidle < IDLE_MAX && segc_context_reset(ctx) == 0)
        idle[nidle++] = ctx;
    else
        segc_context_free(ctx);
done:
    Py_XDECREF(c.str);
    call_free(&c);
    return r;
}

/* ---- results as Python objects ------------------------------------------------- */

static int set(PyObject *d, const char *key, PyObject *v)
{
    if (!v)
        return -1;
    int rc = PyDict_SetItemString(d, key, v);
    Py_DECREF(v);
    return rc;
}

static PyObject *str_or_none(const char *s)
{
    return s ? PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace") : Py_NewRef(Py_None);
}

static PyObject *line_or_none(unsigned n)
{
    return n ? PyLong_FromUnsignedLong(n) : Py_NewRef(Py_None);
}

/* A diagnostic (note: a note) as segc check --diagnostics=json gives it,
 * its keys in the same order. */
static PyObject *diagnostic(const segc_diagnostic *g, int note)
{
    PyObject *d = PyDict_New();
    if (!d || set(d, "file", str_or_none(segc_diagnostic_file(g))) ||
        set(d, "line", line_or_none(segc_diagnostic_line(g))) ||
        set(d, "column", line_or_none(segc_diagnostic_column(g))) ||
        (!note && set(d, "end_line", line_or_none(segc_diagnostic_line(g)))) ||
        set(d, "end_column", line_or_none(segc_diagnostic_end_column(g))))
        goto fail;
    if (note)
        return set(d, "message", str_or_none(segc_diagnostic_message(g))) ? (Py_DECREF(d), NULL) : d;
    if (set(d, "severity", PyUnicode_FromString(segc_severity_name(segc_diagnostic_severity(g)))) ||
        set(d, "rule", str_or_none(segc_diagnostic_code(g))) ||
        set(d, "message", str_or_none(segc_diagnostic_message(g))) ||
        (segc_diagnostic_fix(g) && set(d, "fix", str_or_none(segc_diagnostic_fix(g)))))
        goto fail;
    PyObject *notes = PyList_New((Py_ssize_t)segc_diagnostic_notes(g));
    if (!notes)
        goto fail;
    for (size_t i = 0; i < segc_diagnostic_notes(g); i++) {
        PyObject *n = diagnostic(segc_diagnostic_note(g, i), 1);
        if (!n) {
            Py_DECREF(notes);
            goto fail;
        }
        PyList_SET_ITEM(notes, (Py_ssize_t)i, n);
    }
    if (set(d, "notes", notes))
        goto fail;
    return d;
fail:
    Py_XDECREF(d);
    return NULL;
}

static PyObject *diagnostics(const segc_result *r)
{
    PyObject *l = PyList_New((Py_ssize_t)segc_result_diagnostics(r));
    for (size_t i = 0; l && i < segc_result_diagnostics(r); i++) {
        PyObject *d = diagnostic(segc_result_diagnostic(r, i), 0);
        if (!d) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, d);
    }
    return l;
}

/* NULL with segc.Error raised when the spec is not valid: its status and
 * diagnostics in the exception's attributes, the first error its message. */
static segc_result *valid(segc_result *r)
{
    if (!r || segc_result_status(r) == SEGC_VALID)
        return r;
    PyObject *ds = diagnostics(r);
    const char *msg = "the spec is not valid";
    char first[1024];
    for (size_t i = 0; i < segc_result_diagnostics(r); i++) {
        const segc_diagnostic *g = segc_result_diagnostic(r, i);
        if (segc_diagnostic_severity(g) >= SEGC_ERROR) {
            const char *f = segc_diagnostic_file(g);
            snprintf(first, sizeof first, "%s:%u:%u: [%s] %s", f ? f : "-", segc_diagnostic_line(g),
                     segc_diagnostic_column(g), segc_diagnostic_code(g), segc_diagnostic_message(g));
            msg = first;
            break;
        }
    }
    PyObject *e = ds ? PyObject_CallFunction(segc_error, "s", msg) : NULL;
    PyObject *st = e ? PyLong_FromLong((long)segc_result_status(r)) : NULL;
    if (st && !PyObject_SetAttrString(e, "diagnostics", ds) && !PyObject_SetAttrString(e, "status", st))
        PyErr_SetObject(segc_error, e);
    Py_XDECREF(st);
    Py_XDECREF(e);
    Py_XDECREF(ds);
    segc_result_free(r);
    return NULL;
}

/* ---- the functions ----------------------------------------------------------- */

PyDoc_STRVAR(check_doc,
"check(text, *, name='spec.yaml', args=(), include=()) -> Result\n\n"
"Checks the spec `text` (str or bytes) as `segc check ARGS -I DIR... NAME`\n"
"would: `name` is the file name its diagnostics carry and its `extends:`\n"
"are read relative to; `args` are segc's options for check and build\n"
"(-D NAME=EXPR, -W..., --ddi LIST, ...); `include` the -I directories.\n"
"Result.status is segc check's exit status: 0 (valid) or 1 (invalid; a base\n"
"that cannot be read is an error at its extends: line); Result.diagnostics\n"
"a list of dicts, each with the keys of one\n"
"diagnostic of `segc check --diagnostics=json`.  An option segc does not\n"
"take here raises ValueError.");

static PyObject *py_check(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    segc_result *r = run_call(segc_check, args, kw);
    if (!r)
        return NULL;
    PyObject *ds = diagnostics(r);
    PyObject *out = ds ? PyObject_CallFunction(result_type, "iO", (int)segc_result_status(r), ds) : NULL;
    Py_XDECREF(ds);
    segc_result_free(r);
    return out;
}

PyDoc_STRVAR(build_doc,
"build(text, *, name='spec.yaml', args=(), include=()) -> dict[str, bytes]\n\n"
"The files `segc build` writes for the spec, name to contents (byte for\n"
"byte what it writes), in the order it writes them.  Takes what check\n"
"takes; raises segc.Error, with the diagnostics, when the spec is not valid.");

static PyObject *py_build(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    segc_result *r = valid(run_call(segc_build, args, kw));
    if (!r)
        return NULL;
    PyObject *files = PyDict_New();
    for (size_t i = 0; files && i < segc_result_files(r); i++) {
        size_t n;
        const char *data = segc_result_file_data(r, i, &n);
        PyObject *b = PyBytes_FromStringAndSize(data, (Py_ssize_t)n);
        if (!b || PyDict_SetItemString(files, segc_result_file_name(r, i), b) < 0)
            Py_CLEAR(files);
        Py_XDECREF(b);
    }
    segc_result_free(r);
    return files;
}

PyDoc_STRVAR(model_doc,
"model(text, *, name='spec.yaml', args=(), include=()) -> dict\n\n"
"The spec's resolved model: the document `segc dump --json` prints, as\n"
"json.loads reads it.  Takes what check takes; raises segc.Error, with the\n"
"diagnostics, when the spec is not valid.");

static PyObject *py_model(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    segc_result *r = valid(run_call(segc_model, args, kw));
    if (!r)
        return NULL;
    size_t n = 0;
    const char *m = segc_result_model(r, &n);
    PyObject *out = m ? PyObject_CallFunction(json_loads, "s#", m, (Py_ssize_t)n) : NULL;
    if (!m)
        PyErr_SetString(PyExc_RuntimeError, "segc: a valid spec without a model");
    segc_result_free(r);
    return out;
}

static PyMethodDef methods[] = {
    {"check", (PyCFunction)(void (*)(void))py_check, METH_VARARGS | METH_KEYWORDS, check_doc},
    {"build", (PyCFunction)(void (*)(void))py_build, METH_VARARGS | METH_KEYWORDS, build_doc},
    {"model", (PyCFunction)(void (*)(void))py_model, METH_VARARGS | METH_KEYWORDS, model_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(module_doc,
"segc in-process: check a WDDM segment spec, build its C files, or read\n"
"its resolved model, from the spec's text, as the segc command does.\n\n"
"    import segc\n"
"    r = segc.check(open('board.yaml').read(), name='board.yaml')\n"
"    for d in r.diagnostics:\n"
"        print(d['file'], d['line'], d['rule'], d['message'])\n");

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "segc", module_doc, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit_segc(void);

PyMODINIT_FUNC PyInit_segc(void)
{
    PyObject *m = PyModule_Create(&module);
    PyObject *json = m ? PyImport_ImportModule("json") : NULL;
    PyObject *coll = json ? PyImport_ImportModule("collections") : NULL;
    json_loads = coll ? PyObject_GetAttrString(json, "loads") : NULL;
    result_type = json_loads ? PyObject_CallMethod(coll, "namedtuple", "ss", "Result", "status diagnostics") : NULL;
    Py_XDECREF(json);
    Py_XDECREF(coll);
    if (result_type) {
        PyObject *mod = PyUnicode_FromString("segc");
        if (!mod || PyObject_SetAttrString(result_type, "__module__", mod) < 0)
            Py_CLEAR(result_type);
        Py_XDECREF(mod);
    }
    if (result_type)
        segc_error = PyErr_NewExceptionWithDoc(
            "segc.Error",
            "A spec that is not valid, given to build or model: .status and .diagnostics as check gives them.",
            NULL, NULL);
    if (!segc_error || PyModule_AddObjectRef(m, "Error", segc_error) < 0 ||
        PyModule_AddObjectRef(m, "Result", result_type) < 0 ||
        PyModule_AddStringConstant(m, "__version__", segc_version()) < 0) {
        Py_XDECREF(m);
        return NULL;
    }
    return m;
}
