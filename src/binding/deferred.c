/* Python work handed over by threads that do not hold the GIL.
 *
 * Device work finishes on stream threads, and what it releases last may be
 * a Python object (a NumPy array shared with a tensor). Taking the GIL there
 * for each release would make every stream thread fight the interpreter, so
 * such releases are queued here and run by Python's pending-call mechanism
 * on the main thread, or by the next binding call that drains the queue.
 *
 * Once the interpreter is finalising, a thread that takes the GIL is ended
 * by Python (pthread_exit), which aborts the process when C++ frames (a
 * PyTorch deleter) are on its stack: releases handed over then are leaked
 * instead; the process is exiting and the memory goes with it. */
#include "binding.h"
/* Python.h (in binding.h) must come before system headers. */
#include <pthread.h>
#include <stdatomic.h>

typedef struct deferred {
  void (*fn)(void *arg);
  void *arg;
} deferred;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static deferred *queue;
static size_t count, capacity;
static atomic_bool scheduled;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* A stream thread may hold the lock when another thread forks: take it
 * around fork() so that the child's copy is not locked forever. */
static void fork_prepare(void) {
  pthread_mutex_lock(&lock);
}
static void fork_after(void) {
  pthread_mutex_unlock(&lock);
}
static void register_fork_handlers(void) {
  (void)pthread_atfork(fork_prepare, fork_after, fork_after);
}

void asc_py_run_deferred(void) {
  if (!atomic_load_explicit(&scheduled, memory_order_acquire) && !count) return;
  for (;;) {
    pthread_mutex_lock(&lock);
    deferred *items = queue;
    size_t n = count;
    queue = NULL;
    count = capacity = 0;
    atomic_store(&scheduled, false);
    pthread_mutex_unlock(&lock);
    if (!n) return;
    for (size_t i = 0; i < n; i++) items[i].fn(items[i].arg);
    PyMem_RawFree(items);
  }
}

static int pending_call(void *unused) {
  (void)unused;
  asc_py_run_deferred();
  return 0;
}

#if PY_VERSION_HEX >= 0x030D0000
#define interpreter_finalizing() Py_IsFinalizing()
#else
#define interpreter_finalizing() _Py_IsFinalizing()
#endif

void asc_py_call_with_gil(void (*fn)(void *arg), void *arg) {
  pthread_once(&atfork_once, register_fork_handlers);
  if (interpreter_finalizing()) return; /* leaked on purpose: see above */
  if (PyGILState_Check()) {             /* a Python thread: no hand-over needed */
    fn(arg);
    return;
  }
  pthread_mutex_lock(&lock);
  bool queued = false;
  if (count == capacity) {
    size_t cap = capacity ? capacity * 2 : 64;
    deferred *grown = PyMem_RawRealloc(queue, cap * sizeof *grown);
    if (grown) {
      queue = grown;
      capacity = cap;
    }
  }
  if (count < capacity) {
    queue[count++] = (deferred){fn, arg};
    queued = true;
  }
  bool first = queued && !atomic_exchange(&scheduled, true);
  pthread_mutex_unlock(&lock);
  if (first && Py_AddPendingCall(pending_call, NULL) != 0) {
    /* Python's pending-call slots are full: the next drain will pick it up. */
  }
  if (!queued && !interpreter_finalizing()) { /* out of memory: do it now the slow way */
    PyGILState_STATE gil = asc_py_gil_ensure();
    fn(arg);
    PyGILState_Release(gil);
  }
}

/* _C._finish_pending(): waits for every stream of every device and runs the
 * releases handed over so far. Returns the messages of the asynchronous
 * errors still pending (each stream reports its own once), so that an exit
 * handler can print them instead of losing them. */
static PyObject *finish_pending(PyObject *self, PyObject *noargs) {
  (void)self, (void)noargs;
  PyObject *errors = PyList_New(0);
  if (!errors) return NULL;
  int count = 0;
  if (asc_device_count(&count)) count = 0;
  for (int d = 0; d < count; d++) {
    /* A device reports one pending error per synchronize: ask until clean
     * (bounded, in case work keeps failing while we wait). */
    for (int tries = 0; tries < 1024; tries++) {
      asc_status st;
      Py_BEGIN_ALLOW_THREADS
      st = asc_device_synchronize(d);
      Py_END_ALLOW_THREADS
      if (!st) break;
      PyObject *msg = PyUnicode_FromFormat("device %d: %s", d, asc_last_error());
      asc_clear_error();
      if (!msg || PyList_Append(errors, msg)) {
        Py_XDECREF(msg);
        Py_DECREF(errors);
        return NULL;
      }
      Py_DECREF(msg);
    }
  }
  asc_py_run_deferred();
  return errors;
}

PyMethodDef asc_py_deferred_functions[] = {
    {"_finish_pending", finish_pending, METH_NOARGS,
     ASC_DOC("_finish_pending($module, /)",
             "Waits for all streams of all devices, runs deferred releases; returns the "
             "messages (list[str]) of asynchronous errors that were still pending.")},
    {NULL, NULL, 0, NULL},
};
