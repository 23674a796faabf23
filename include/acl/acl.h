/* ACL for host programs on pyasc's simulated device: the runtime part of
 * CANN's acl/acl.h (docs/ascendc.md, "ACL on the simulator"). */
#ifndef PYASC_ACL_H
#define PYASC_ACL_H

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#endif
