-- C's math library, as Torch7's TH called it: exp, log, pow... of doubles
-- and their float versions (expf, logf, powf...) for FloatTensors.  The
-- element-wise functions go through these at every size: numpy's vectorised
-- ones round differently (on CPUs with AVX-512, in up to a quarter of the
-- elements), which would make the bits depend on the machine.
-- Returns ffi.C, with these declared; the declarations' text is
-- torch.internal.libm (a helper thread's Lua state declares them too).
local ffi = require 'ffi'
local internal = require 'torch.internal'

local UNARY = {'exp', 'log', 'log1p', 'sqrt', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'sinh', 'cosh', 'tanh'}
local declarations = {
   'double pow(double, double); float powf(float, float);',
   'double atan2(double, double); float atan2f(float, float);',
   'double fma(double, double, double); float fmaf(float, float, float);',
   'double fmod(double, double);',   -- (exact: a float's is its double's)
}
for _, f in ipairs(UNARY) do
   declarations[#declarations + 1] = ('double %s(double); float %sf(float);'):format(f, f)
end
internal.libm = table.concat(declarations, '\n')
ffi.cdef(internal.libm)

return ffi.C
