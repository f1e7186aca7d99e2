-- Checkpoints saved on a GPU: cutorch wrote its tensors and storages in the
-- CPU classes' layout under its own class names (torch.CudaTensor holds
-- floats, torch.CudaDoubleTensor doubles, torch.CudaHalfTensor IEEE halves...).
-- th has no GPU: reading such a file makes the matching CPU objects
-- (CudaTensor -> FloatTensor, CudaHalfTensor -> FloatTensor...) and prints one
-- warning line per file.

local gpucheckpoint = {}

local CPU = {}
for _, names in ipairs({{'', 'Float'}, {'Double', 'Double'}, {'Half', 'Float'},
                        {'Byte', 'Byte'}, {'Char', 'Char'}, {'Short', 'Short'},
                        {'Int', 'Int'}, {'Long', 'Long'}}) do
   local gpu, cpu = names[1], names[2]
   CPU['torch.Cuda' .. gpu .. 'Tensor'] = 'torch.' .. cpu .. 'Tensor'
   CPU['torch.Cuda' .. gpu .. 'Storage'] = 'torch.' .. cpu .. 'Storage'
end

local band, rshift, ldexp, huge = bit.band, bit.rshift, math.ldexp, math.huge

-- the float of an IEEE half given by its 16 bits (0..65535)
local function halftofloat(h)
   local sign = h >= 0x8000 and -1 or 1
   local e, m = band(rshift(h, 10), 0x1f), band(h, 0x3ff)
   if e == 0 then return sign * ldexp(m, -24) end
   if e == 31 then return m == 0 and sign * huge or 0 / 0 end
   return sign * ldexp(m + 1024, e - 25)
end

-- CudaHalfStorage: a Long count, then the halves (binary: 16 bits each, as
-- cutorch's THFile_writeHalfRaw wrote them; ascii: as numbers)
local function readhalf(storage, file)
   local n = file:readLong()
   if n < 0 then error(('corrupted file: storage of negative size %d'):format(n)) end
   if not file:isBinary() then
      storage:resize(n):copy(file:readFloat(n))
      return
   end
   local bits = file:readShort(n)
   storage:resize(n)
   for i = 1, n do
      storage[i] = halftofloat(bits[i] % 65536)
   end
end

local warned = setmetatable({}, {__mode = 'k'})

-- cpuclass(file, classname) -> nil if classname is no cutorch class, else the
-- CPU class to read it as and the read method to use (nil: that class's own)
function gpucheckpoint.cpuclass(file, classname)
   local cpu = CPU[classname]
   if not cpu then return nil end
   if not warned[file] then
      warned[file] = true
      io.stderr:write('warning: this file holds GPU (cutorch) tensors: th loads them as CPU tensors ',
                      '(torch.CudaTensor as torch.FloatTensor, torch.CudaDoubleTensor as torch.DoubleTensor...)\n')
   end
   return cpu, classname == 'torch.CudaHalfStorage' and readhalf or nil
end

return gpucheckpoint
