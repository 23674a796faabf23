// GE's graph/tensor.h for pyasc's simulator (CANN's graph_base library): ge::Shape, the shape
// CANN's host tiling functions take (AscendC::TensorShape). Header-only.
#ifndef PYASC_ASCENDC_GRAPH_TENSOR_H
#define PYASC_ASCENDC_GRAPH_TENSOR_H

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "types.h"

namespace ge {

class Shape {
 public:
  Shape() = default;
  explicit Shape(const std::vector<int64_t> &dims) : dims_(dims) {}

  size_t GetDimNum() const { return dims_.size(); }
  // The size along idx; 0 past the last dimension, as GE answers.
  int64_t GetDim(size_t idx) const { return idx < dims_.size() ? dims_[idx] : 0; }
  graphStatus SetDim(size_t idx, int64_t value) {
    if (idx >= dims_.size()) return GRAPH_FAILED;
    dims_[idx] = value;
    return GRAPH_SUCCESS;
  }
  std::vector<int64_t> GetDims() const { return dims_; }
  // Elements: the product of the sizes; 0 for no dimensions, -1 for an unknown (negative) size
  // or a product past int64.
  int64_t GetShapeSize() const {
    if (dims_.empty()) return 0;
    int64_t size = 1;
    for (int64_t d : dims_) {
      if (d < 0) return -1;
      if (d != 0 && size > std::numeric_limits<int64_t>::max() / d) return -1;
      size *= d;
    }
    return size;
  }

 private:
  std::vector<int64_t> dims_;
};

}  // namespace ge

#endif
