// GE's graph/types.h for pyasc's simulator (CANN's graph_base library): the element types and
// status codes CANN's host tiling functions take and return. Only what host tiling programs
// use; GE's graph construction is not here.
#ifndef PYASC_ASCENDC_GRAPH_TYPES_H
#define PYASC_ASCENDC_GRAPH_TYPES_H

#include <cstdint>

#include "../kernel_operator/enum_lists.h"

namespace ge {

using graphStatus = uint32_t;
const graphStatus GRAPH_SUCCESS = 0;
const graphStatus GRAPH_FAILED = 0xFFFFFFFF;

// GE's numbers (matmul_tiling::DataType has the same ones).
enum DataType { PYASC_GE_DATA_TYPES, DT_MAX };

}  // namespace ge

#endif
