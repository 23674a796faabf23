/* libasc: the C core of pyasc. Include this for the whole public API. */
#ifndef ASC_ASC_H
#define ASC_ASC_H

#include "asc/hal.h"
#include "asc/mem.h"
#include "asc/runtime.h"
#include "asc/status.h"
#include "asc/tiling.h"

#endif
