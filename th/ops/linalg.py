"""LAPACK through scipy, called as TH's THTensorLapack.c calls it: the fallback
of th/lua/torch/linalg.lua when the system has no LAPACK for the FFI.

Each function reads its inputs (copies: outputs may alias them), runs the same
LAPACK routine as Torch7, and only when it succeeded writes the results into
the `out` views the Lua side prepared (sized and laid out as TH leaves them).
A failure returns TH's message; nothing is written then.
"""
import importlib.util
import os
import sys

import numpy as np

from th.ops import export

_FLAPACK = "scipy.linalg._flapack"
_flapack = None


def _load_flapack():
    """scipy's LAPACK wrappers without scipy.linalg's package, which imports
    all of scipy.linalg (0.2 s, the first LAPACK call's wait) where this
    extension module alone takes 10 ms.  It is registered under its own name,
    so a later `import scipy.linalg` shares it; if scipy lays its files out
    otherwise, the package is imported after all."""
    if _FLAPACK in sys.modules:
        return sys.modules[_FLAPACK]
    try:
        import scipy
        folder = os.path.join(os.path.dirname(scipy.__file__), "linalg")
        name = next(f for f in sorted(os.listdir(folder))
                    if f.startswith("_flapack.") and f.endswith(".so"))
        spec = importlib.util.spec_from_file_location(_FLAPACK, os.path.join(folder, name))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[_FLAPACK] = module
        return module
    except (StopIteration, ImportError, OSError):
        from scipy.linalg import _flapack
        return _flapack


def _lapack(name, *arrays):
    """The LAPACK routine `name` for the arrays' type (s for float32, d otherwise),
    as scipy.linalg.get_lapack_funcs picks it for real arrays."""
    global _flapack
    if _flapack is None:
        _flapack = _load_flapack()
    single = all(a.dtype == np.float32 for a in arrays)
    return getattr(_flapack, ("s" if single else "d") + name)


def _fortran(a):
    return np.array(a, order="F")


def _matrix(b):
    """A 1-D right-hand side is an n x 1 matrix, as TH views it."""
    return b.reshape(-1, 1) if b.ndim == 1 else b


@export
def gesv(x_out, lu_out, b, a):
    a, b = _fortran(a), _fortran(_matrix(b))
    lu, _, x, info = _lapack("gesv", a, b)(a, b)
    if info > 0:
        return "Lapack Error in gesv : U(%d,%d) is zero, singular U." % (info, info)
    x_out[...] = x.reshape(x_out.shape)
    lu_out[...] = lu
    return None


@export
def trtrs(x_out, a_out, b, a, uplo, trans, diag):
    a, b = _fortran(a), _fortran(_matrix(b))
    x, info = _lapack("trtrs", a, b)(a, b, lower=uplo == "L", trans=1 if trans == "T" else 0,
                                     unitdiag=diag == "U")
    if info > 0:
        return "Lapack Error in trtrs : A(%d,%d) is zero, singular A" % (info, info)
    x_out[...] = x.reshape(x_out.shape)
    a_out[...] = a
    return None


def _clear_triangle(c, uplo):
    """TH's clearUpLoTriangle: zero the half LAPACK did not compute."""
    return np.triu(c) if uplo == "U" else np.tril(c)


@export
def potrf(out, a, uplo):
    a = _fortran(a)
    c, info = _lapack("potrf", a)(a, lower=uplo == "L", clean=0)
    if info > 0:
        return "Lapack Error in potrf : the leading minor of order %d is not positive definite" % info
    out[...] = _clear_triangle(c, uplo)
    return None


@export
def pstrf(out, piv_out, a, uplo, tol):
    a = _fortran(a)
    c, piv, _, info = _lapack("pstrf", a)(a, tol=tol, lower=uplo == "L")
    if info > 0:
        return "Lapack Error pstrf : matrix is rank deficient or not positive semidefinite"
    out[...] = _clear_triangle(c, uplo)
    piv_out[...] = piv
    return None


@export
def potrs(out, b, c, uplo):
    c, b = _fortran(c), _fortran(_matrix(b))
    x, info = _lapack("potrs", c, b)(c, b, lower=uplo == "L")
    if info != 0:
        return "Lapack Error in potrs : Illegal Argument %d" % -info
    out[...] = x.reshape(out.shape)
    return None


@export
def potri(out, c, uplo):
    c = _fortran(c)
    inv, info = _lapack("potri", c)(c, lower=uplo == "L")
    if info > 0:
        return "Lapack Error potri : A(%d,%d) is 0, A cannot be factorized" % (info, info)
    # LAPACK fills one triangle; TH copies it to the other
    full = np.triu(inv) if uplo == "U" else np.tril(inv)
    out[...] = full + np.tril(full.T, -1) if uplo == "U" else full + np.triu(full.T, 1)
    return None


@export
def gels(x_out, a_out, b, a):
    """Least squares (m >= n) or minimum norm (m < n) solution: its first n rows."""
    a, b = _fortran(a), _matrix(b)
    m, n = a.shape
    padded = np.zeros((max(m, n), b.shape[1]), a.dtype, order="F")
    padded[:m] = b
    qr, x, info = _lapack("gels", a, padded)(a, padded)
    if info > 0:
        return ("Lapack Error in gels : The %d-th diagonal element of the triangular factor of A "
                "is zero" % info)
    x_out[...] = x[:n].reshape(x_out.shape)
    a_out[...] = qr
    return None


@export
def symeig(e_out, v_out, a, jobz, uplo):
    a = _fortran(a)
    w, v, info = _lapack("syev", a)(a, compute_v=1 if jobz == "V" else 0, lower=uplo == "L")
    if info > 0:
        return ("Lapack Error syev : %d off-diagonal elements didn't converge to zero" % info)
    e_out[...] = w
    v_out[...] = v
    return None


@export
def eig(e_out, v_out, a, jobvr):
    """e_out: n x 2 (real and imaginary parts); v_out: the right eigenvectors or None."""
    a = _fortran(a)
    wr, wi, _, vr, info = _lapack("geev", a)(a, compute_vl=0, compute_vr=1 if jobvr == "V" else 0)
    if info > 0:
        return "Lapack Error in geev : %d off-diagonal elements of an didn't converge to zero" % info
    e_out[:, 0] = wr
    e_out[:, 1] = wi
    if v_out is not None:
        v_out[...] = vr
    return None


@export
def svd(u_out, s_out, v_out, a, jobu):
    a = _fortran(a)
    u, s, vt, info = _lapack("gesvd", a)(a, compute_uv=1, full_matrices=1 if jobu == "A" else 0)
    if info > 0:
        return "Lapack Error gesvd : %d superdiagonals failed to converge." % info
    u_out[...] = u
    s_out[...] = s
    v_out[...] = vt.T
    return None


@export
def inverse(out, a):
    a = _fortran(a)
    lu, piv, info = _lapack("getrf", a)(a)
    if info > 0:
        return "Lapack Error getrf : U(%d,%d) is 0, U is singular" % (info, info)
    inv, info = _lapack("getri", lu)(lu, piv)
    if info > 0:
        return "Lapack Error getri : U(%d,%d) is 0, U is singular" % (info, info)
    out[...] = inv
    return None


@export
def geqrf(out, tau_out, a):
    a = _fortran(a)
    qr, tau, _, info = _lapack("geqrf", a)(a)
    out[...] = qr
    tau_out[...] = tau
    return None


@export
def orgqr(out, a, tau):
    """TH asks orgqr for k = #tau columns; the others keep a's values."""
    k = tau.shape[0]
    q = _fortran(a)
    if k > 0:
        head, _, info = _lapack("orgqr", q)(np.asfortranarray(q[:, :k]), np.array(tau))
        q[:, :k] = head
    out[...] = q
    return None


@export
def ormqr(out, a, tau, c, side, trans):
    a, c = _fortran(a), _fortran(c)
    tau = np.array(tau)
    f = _lapack("ormqr", a, c)
    lwork = max(1, c.shape[1] if side == "L" else c.shape[0]) * 64
    cq, _, info = f(side, trans, a, tau, c, lwork)
    if info != 0:
        return "Lapack Error in ormqr : Illegal Argument %d" % -info
    out[...] = cq
    return None


@export
def qr(q_out, r_out, a):
    """Q (m x k) and R (k x n, upper triangular) from geqrf and orgqr."""
    a = _fortran(a)
    k = min(a.shape)
    packed, tau, _, _ = _lapack("geqrf", a)(a)
    r_out[...] = np.triu(packed[:k])
    q, _, _ = _lapack("orgqr", packed)(np.asfortranarray(packed[:, :k]), tau)
    q_out[...] = q
    return None
