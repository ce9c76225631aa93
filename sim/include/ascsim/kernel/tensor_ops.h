// ascsim kernel side: the documented "whole tensor" operator forms of the basic vector APIs,
//   dst = src0 + src1 / - / * / /  (Add, Sub, Mul, Div), dst = src0 | src1, dst = src0 & src1 (Or, And),
//   dstMask = src0 < src1 / > / <= / >= / == / != (Compare, one bit per element),
// each the count form of its API over all elements of src0 (GetSize()). The operator builds an expression that
// LocalTensor's assignment evaluates into the destination, so `dst = a + b` issues exactly one vector API call.
#ifndef ASCSIM_ASCSIM_KERNEL_TENSOR_OPS_H_
#define ASCSIM_ASCSIM_KERNEL_TENSOR_OPS_H_
#include "vec_arith.h"
#include "vec_compare.h"

namespace ascsim {
enum class TensorOp { ADD, SUB, MUL, DIV, OR, AND, LT, GT, LE, GE, EQ, NE };
template <class T, TensorOp OP> struct TensorExpr {
    using ascsim_tensor_expr = void;
    const AscendC::LocalTensor<T>& a;
    const AscendC::LocalTensor<T>& b;
    template <class D> void eval_into(const AscendC::LocalTensor<D>& dst) const {
        using namespace AscendC;
        const uint32_t n = a.GetSize();
        if constexpr (OP == TensorOp::ADD) Add(dst, a, b, int32_t(n));
        else if constexpr (OP == TensorOp::SUB) Sub(dst, a, b, int32_t(n));
        else if constexpr (OP == TensorOp::MUL) Mul(dst, a, b, int32_t(n));
        else if constexpr (OP == TensorOp::DIV) Div(dst, a, b, int32_t(n));
        else if constexpr (OP == TensorOp::OR) Or(dst, a, b, int32_t(n));
        else if constexpr (OP == TensorOp::AND) And(dst, a, b, int32_t(n));
        else {
            constexpr CMPMODE mode = OP == TensorOp::LT ? CMPMODE::LT : OP == TensorOp::GT ? CMPMODE::GT :
                                     OP == TensorOp::LE ? CMPMODE::LE : OP == TensorOp::GE ? CMPMODE::GE :
                                     OP == TensorOp::EQ ? CMPMODE::EQ : CMPMODE::NE;
            Compare(dst, a, b, mode, n);
        }
    }
};
}  // namespace ascsim

namespace AscendC {
#define ASCSIM_TENSOR_OPERATOR(SYM, OP)                                                                           \
    template <typename T>                                                                                          \
    inline ::ascsim::TensorExpr<T, ::ascsim::TensorOp::OP> operator SYM(const LocalTensor<T>& a, const LocalTensor<T>& b) { \
        return {a, b};                                                                                             \
    }
ASCSIM_TENSOR_OPERATOR(+, ADD)
ASCSIM_TENSOR_OPERATOR(-, SUB)
ASCSIM_TENSOR_OPERATOR(*, MUL)
ASCSIM_TENSOR_OPERATOR(/, DIV)
ASCSIM_TENSOR_OPERATOR(|, OR)
ASCSIM_TENSOR_OPERATOR(&, AND)
ASCSIM_TENSOR_OPERATOR(<, LT)
ASCSIM_TENSOR_OPERATOR(>, GT)
ASCSIM_TENSOR_OPERATOR(<=, LE)
ASCSIM_TENSOR_OPERATOR(>=, GE)
ASCSIM_TENSOR_OPERATOR(==, EQ)
ASCSIM_TENSOR_OPERATOR(!=, NE)
#undef ASCSIM_TENSOR_OPERATOR
}  // namespace AscendC
#endif  // ASCSIM_ASCSIM_KERNEL_TENSOR_OPS_H_
