/* The GIL for threads Python did not start (stream threads).
 *
 * PyGILState_Ensure creates such a thread's state without holding the GIL,
 * and that takes the interpreter's thread-list lock. CPython 3.11 does not
 * take that lock around fork(), and its child then waits on it forever
 * (PyOS_AfterFork_Child deletes the other threads' states before it resets
 * the lock). So the states are created here, under a lock that fork() takes
 * too; the rest is PyGILState_Ensure's own bookkeeping. CPython 3.13
 * takes the lock around fork() itself. */
#include "binding.h"
/* Python.h (in binding.h) must come before system headers. */
#include <pthread.h>

#if PY_VERSION_HEX < 0x030D0000
static pthread_mutex_t creating = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void fork_prepare(void) {
  pthread_mutex_lock(&creating);
}
static void fork_after(void) {
  pthread_mutex_unlock(&creating);
}
static void register_fork_handlers(void) {
  (void)pthread_atfork(fork_prepare, fork_after, fork_after);
}

PyGILState_STATE asc_py_gil_ensure(void) {
  pthread_once(&atfork_once, register_fork_handlers);
  if (!PyGILState_GetThisThreadState()) {
    pthread_mutex_lock(&creating);
    PyThreadState *state = PyThreadState_New(PyInterpreterState_Main());
    pthread_mutex_unlock(&creating);
    /* Owned by the matching PyGILState_Release, which deletes it at zero,
     * as for a state PyGILState_Ensure made itself. Out of memory: let
     * PyGILState_Ensure try and report it. */
    if (state) state->gilstate_counter = 0;
  }
  return PyGILState_Ensure();
}
#else
PyGILState_STATE asc_py_gil_ensure(void) {
  return PyGILState_Ensure();
}
#endif
