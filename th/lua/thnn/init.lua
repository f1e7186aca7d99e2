-- nn.THNN for th: what torch/nn's Lua code reads from its THNN module (the
-- kernel tables on the Float/Double tensor metatables, NULL, optionalTensor,
-- runKernel), with the kernels written in Lua over th tensors instead of the
-- C library libTHNN.  th preloads it as 'nn.THNN', so nn's own THNN.lua (which
-- would ffi.load libTHNN) is never loaded.
--
-- nn calls `input.THNN.Sigmoid_updateOutput(input:cdata(), output:cdata())`:
-- each tensor arrives as its C structure, which torch.ffi maps back to the
-- tensor (internal.bystruct).  A kernel family (the part of the name before
-- the first '_') lives in thnn/<Family>.lua, loaded on first use; it returns
-- {Sigmoid_updateOutput = function(state, input, output) ... end, ...} with
-- THNN.h's arguments in order, tensors resolved (nil for NULL), a THGenerator*
-- given as the torch generator, numbers and booleans as they came.
local ffi = require 'ffi'
local torch = require 'torch'
local internal = require 'torch.internal'

local bystruct = internal.bystruct
local type, tonumber, error = type, tonumber, error

-- the generator struct as nn's THNN.lua declared it: RReLU casts torch._gen
-- with ffi.typeof('THGenerator**')
if not pcall(ffi.typeof, 'THGenerator') then
   ffi.cdef [[
typedef void THNNState;
typedef struct {
  unsigned long the_initial_seed;
  int left;
  int seeded;
  unsigned long next;
  unsigned long state[624];
  double normal_x;
  double normal_y;
  double normal_rho;
  int normal_is_valid;
} THGenerator;
]]
end
local generatorptr = ffi.typeof('THGenerator*')

local THNN = {}

THNN.NULL = ffi.NULL or nil

function THNN.getState()
   return THNN.NULL
end

function THNN.optionalTensor(t)
   return t and t:cdata() or THNN.NULL
end

-- an argument as the kernel sees it: a C tensor structure becomes its tensor;
-- a generator pointer is torch's generator (nn only ever passes torch._gen,
-- whose THGenerator th does not lay out in a userdata).  other: the pointer
-- type of the other real type, which the C function's FFI call refused (a
-- Float module given a DoubleTensor: argument numbers count the state, #1)
local function resolve(v, argn, name, other)
   if type(v) ~= 'cdata' then return v end
   if ffi.istype(generatorptr, v) then return torch._gen end
   if v == nil then return nil end   -- a NULL pointer
   if ffi.istype(other.ptr, v) then
      error(("bad argument #%d to 'v' (cannot convert 'struct %s *' to 'struct %s *')")
            :format(argn + 1, other.name, other.want), 2)   -- (at nn's THNN.lua:110, the call)
   end
   local t = bystruct[tonumber(ffi.cast('intptr_t', v))]
   if t == nil then
      error(("bad argument #%d to '%s' (not the cdata() of a live tensor)"):format(argn, name), 3)
   end
   return t
end

-- the family tables, loaded on first use: family name -> table (false when th has none)
local families = {}

local function family(name)
   local f = families[name]
   if f == nil then
      local modname = 'thnn.' .. name
      f = package.searchpath(modname, package.path) and require(modname) or false
      families[name] = f
   end
   return f
end

-- the callable nn sees: arguments without the state, resolved, then the
-- kernel.  The wrapper is generated for the kernel's number of parameters:
-- a vararg wrapper ({...} and unpack) kept LuaJIT from compiling the calls,
-- and a 256-element ReLU then cost 30-300 us instead of 1.
local wrappers = {}   -- number of arguments -> function(impl, name) -> callable

-- The wrappers stand for the closures of nn's THNN.lua, whose line 110 called
-- the C function as `v`: their chunk bears that file's name, the call on
-- that line, so that a kernel's error reads ".../nn/THNN.lua:110: ..." and
-- a traceback "[C]: in function 'v'", as the original's (nn's Container
-- prints one); '=thnn.bind' when no nn is on the path.
local THNN_LINE = 110
local function chunkname()
   local path = package.searchpath('nn.THNN', package.path)
   return path and '@' .. path or '=thnn.bind'
end

-- The kernels' scalar and pointer arguments as the original's FFI call
-- converted them into THNN's C types (thnn/argtypes.lua, recorded from the
-- original): a number into an int truncated (what no int holds, NaN too,
-- the smallest one, as x86's conversion gives), a boolean 1 or 0, a numeric
-- cdata its value; nil, a string (numeric too), a table... the FFI's error,
-- located at nn's call (THNN.lua:110) and naming the argument counting the
-- state (#1).  nn's modules pass fields that can be nil or strings
-- (LeakyReLU's inplace, ELU's alpha, a criterion's sizeAverage or margin).

-- the FFI's name for the type of a value it cannot convert
local function ctypename(v)
   local t = type(v)
   if t == 'userdata' then return 'void *' end
   if t == 'boolean' then return 'bool' end
   if t == 'cdata' then return (tostring(ffi.typeof(v)):match('^ctype<(.*)>$')) end
   return t
end

local function refuse(v, argn, ctype)
   error(("bad argument #%d to 'v' (cannot convert '%s' to '%s')"):format(argn + 1, ctypename(v), ctype), 3)
end

-- a C bool: a number true unless 0
local function cbool(v, argn)
   local t = type(v)
   if t == 'boolean' then return v end
   if t == 'number' then return v ~= 0 end
   refuse(v, argn, 'bool')
end

local floor, ceil = math.floor, math.ceil

-- a number as it comes out of C's conversion to `ctype`, or nil when the
-- FFI refused it
local function cnumber(v, ctype)
   local t = type(v)
   if t == 'cdata' then v, t = tonumber(v), 'number' end
   if t == 'boolean' then return v and 1 or 0 end
   if t ~= 'number' or ctype == 'double' then return v end
   local lim = ctype == 'int' and 2^31 or 2^63
   if v ~= v or v >= lim or v < -lim then return -lim end
   return v >= 0 and floor(v) or ceil(v)
end

local function cint(v, argn, ctype)
   if type(v) == 'number' and v == floor(v) and v < 2^31 and v >= -2^31 then return v end   -- (the usual case)
   local n = cnumber(v, ctype)
   if type(n) ~= 'number' then refuse(v, argn, ctype) end
   return n
end

local function cdouble(v, argn)
   if type(v) == 'number' then return v end
   local n = cnumber(v, 'double')
   if type(n) ~= 'number' then refuse(v, argn, 'double') end
   return n
end

-- a tensor pointer: nil (NULL), the wanted C structure (code p: the
-- kernel's real type, L a LongTensor, I an IntTensor); another tensor
-- structure, a number, a string, a table... the FFI's error (a userdata,
-- which the FFI took as a raw pointer, is given to the kernel as it is)
local WANT = {L = {ct = ffi.typeof('THLongTensor*'), cname = 'struct THLongTensor *'},
              I = {ct = ffi.typeof('THIntTensor*'), cname = 'struct THIntTensor *'}}
local istype = ffi.istype
local function cptr(v, argn, name, other, code)
   if v == nil then return nil end
   local want = WANT[code] or other
   if type(v) == 'cdata' then
      if istype(want.ct, v) then return resolve(v, argn, name, other) end
      local cname = ctypename(v)
      if cname:match('^struct TH%a+Tensor %*$') then refuse(v, argn, want.cname) end
      return resolve(v, argn, name, other)
   elseif type(v) ~= 'userdata' then
      refuse(v, argn, want.cname)
   end
   return v
end

-- (nn's THNN.lua called the C function as `v`, which raised their errors)
for _, f in ipairs({resolve, cbool, cint, cdouble, cptr}) do internal.callnames[f] = 'v' end

-- the kernels' parameters that are C bools in THNN.h, by th's names for
-- them (for a kernel argtypes.lua has not)
local BOOLS = {sizeAverage = true, inplace = true, train = true, ceil_mode = true, count_include_pad = true,
               scaleGradByFreq = true, batchMode = true}
local argtypes = require 'thnn.argtypes'

local CONVERT = {
   b = 'cbool(a%d, %d)', i = "cint(a%d, %d, 'int')", l = "cint(a%d, %d, 'int64_t')",
   d = 'cdouble(a%d, %d)', p = "cptr(a%d, %d, name, other, 'p')", L = "cptr(a%d, %d, name, other, 'L')",
   I = "cptr(a%d, %d, name, other, 'I')",
}

-- wrapper(codes): codes, a letter per argument (state excluded) as in
-- argtypes.lua ('?' for an argument resolved as it comes)
local function wrapper(codes)
   local w = wrappers[codes]
   if not w then
      local n = #codes
      local params, resolved = {}, {}
      for i = 1, n do
         params[i] = 'a' .. i
         resolved[i] = (CONVERT[codes:sub(i, i)] or 'resolve(a%d, %d, name, other)'):format(i, i)
      end
      local src = ('local resolve, cbool, cint, cdouble, cptr = ... return function(v, name, other) return function(%s)'
                   .. string.rep('\n', THNN_LINE - 1) .. ' v(nil%s) end end')
         :format(table.concat(params, ', '), n > 0 and ', ' .. table.concat(resolved, ', ') or '')
      w = assert(loadstring(src, chunkname()))(resolve, cbool, cint, cdouble, cptr)
      wrappers[codes] = w
   end
   return w
end

-- THNN.h's longest argument list (state excluded) is 19
local MAXARGS = 19

local function bind(name, impl, other)
   local info = debug.getinfo(impl, 'u')
   local n = info.isvararg and MAXARGS or math.max(info.nparams - 1, 0)
   local codes = argtypes[name]
   if not codes or #codes ~= n then
      local c = {}
      for i = 1, n do c[i] = '?' end
      for i = 2, info.isvararg and 1 or info.nparams do
         if BOOLS[debug.getlocal(impl, i)] then c[i - 1] = 'b' end
      end
      codes = table.concat(c)
   end
   return wrapper(codes)(impl, name, other)
end

-- T's kernels: other, the other real type's tensor pointer (see resolve)
local function kernels(T)
   local O = T == 'Float' and 'Double' or 'Float'
   local other = {ptr = ffi.typeof('TH' .. O .. 'Tensor*'), name = 'TH' .. O .. 'Tensor', want = 'TH' .. T .. 'Tensor',
                  ct = ffi.typeof('TH' .. T .. 'Tensor*'), cname = 'struct TH' .. T .. 'Tensor *'}
   return setmetatable({}, {__index = function(self, name)
      if type(name) ~= 'string' then return nil end
      local fam = family(name:match('^([^_]+)_') or name)
      local impl = fam and fam[name]
      if not impl then return nil end
      local f = bind(name, impl, other)
      rawset(self, name, f)
      return f
   end})
end

THNN.kernels = {}
for _, T in ipairs{'Float', 'Double'} do
   local tname = 'torch.' .. T .. 'Tensor'
   THNN.kernels[tname] = kernels(T)
   torch.getmetatable(tname).THNN = THNN.kernels[tname]
end

function THNN.runKernel(f, type, ...)
   local ftable = THNN.kernels[type]
   if not ftable then
      error('Unsupported tensor type: ' .. type)
   end
   local fn = ftable[f]
   if not fn then
      error(string.format("Function '%s' not found for tensor type '%s'.", f, type))
   end
   fn(...)
end

return THNN
