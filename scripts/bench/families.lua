-- Per-call cost of every family of operations at three sizes, under any th
-- (th or the original Torch7: only Torch7's API is used).  Prints
-- "family/op size microseconds" lines; scripts/bench/compare.py runs it under
-- two th commands and prints the ratio table.
--   th families.lua [budget_seconds] [filter]
local budget = tonumber(arg and arg[1]) or 0.02
local filter = arg and arg[2]
local sizes = {100, 10000, 1000000}

package.path = (debug.getinfo(1, 'S').source:match('^@(.*[/\\])') or './') .. '?.lua;' .. package.path
local report = require('bench').reporter(budget, filter)

torch.manualSeed(1)
local unary = {'abs', 'sign', 'neg', 'acos', 'asin', 'atan', 'ceil', 'cos', 'cosh', 'exp', 'floor',
               'log', 'log1p', 'round', 'sin', 'sinh', 'sqrt', 'rsqrt', 'tan', 'tanh', 'sigmoid',
               'trunc', 'frac', 'cinv'}
for _, n in ipairs(sizes) do
   local x, y, z = torch.rand(n), torch.rand(n):add(0.5), torch.rand(n)
   local r = torch.Tensor(n)
   local xf, xi = torch.FloatTensor(n):uniform(), torch.IntTensor(n):random(1, 100)
   local xb, xl = torch.ByteTensor(n):random(0, 255), torch.LongTensor(n):random(1, 100)
   local mask = torch.gt(x, 0.5)
   local m = math.floor(math.sqrt(n))
   local A, B = torch.rand(m, m), torch.rand(m, m)
   local W = torch.rand(m, 2 * m)
   local v, w = torch.rand(m), torch.rand(m)
   local idx = torch.LongTensor(math.max(1, math.floor(m / 2))):random(1, m)
   local gidx = torch.LongTensor(m, m):random(1, m)

   -- element-wise functions, into an existing result
   for _, f in ipairs(unary) do
      report('unary/' .. f, n, function() torch[f](r, y) end)
   end
   report('unary/pow', n, function() torch.pow(r, y, 2.5) end)
   report('unary/atan2', n, function() torch.atan2(r, x, y) end)
   -- arithmetic with a number and between tensors
   report('basic/add_number', n, function() r:add(x, 2) end)
   report('basic/add_tensor', n, function() r:add(x, y) end)
   report('basic/add_scaled', n, function() r:add(x, 0.5, y) end)
   report('basic/csub', n, function() r:csub(x, y) end)
   report('basic/mul', n, function() r:mul(x, 3) end)
   report('basic/div', n, function() r:div(x, 3) end)
   report('basic/cmul', n, function() r:cmul(x, y) end)
   report('basic/cdiv', n, function() r:cdiv(x, y) end)
   report('basic/cpow', n, function() r:cpow(x, y) end)
   report('basic/fmod', n, function() r:fmod(x, 0.3) end)
   report('basic/remainder', n, function() r:remainder(x, 0.3) end)
   report('basic/cmax', n, function() r:cmax(x, y) end)
   report('basic/cmin', n, function() r:cmin(x, y) end)
   report('basic/clamp', n, function() r:clamp(x, 0.2, 0.8) end)
   report('basic/addcmul', n, function() r:addcmul(x, 0.5, y, z) end)
   report('basic/addcdiv', n, function() r:addcdiv(x, 0.5, z, y) end)
   report('basic/lerp', n, function() r:lerp(x, y, 0.3) end)
   report('basic/new_result', n, function() local _ = torch.add(x, y) end)
   report('basic/float_mul', n, function() xf:mul(1.0000001) end)
   report('basic/int_add', n, function() xi:add(3) end)
   report('basic/long_add', n, function() xl:add(3) end)
   -- reductions
   report('reduce/sum', n, function() local _ = x:sum() end)
   report('reduce/prod', n, function() local _ = y:prod() end)
   report('reduce/mean', n, function() local _ = x:mean() end)
   report('reduce/max', n, function() local _ = x:max() end)
   report('reduce/min', n, function() local _ = x:min() end)
   report('reduce/var', n, function() local _ = x:var() end)
   report('reduce/std', n, function() local _ = x:std() end)
   report('reduce/norm', n, function() local _ = x:norm() end)
   report('reduce/cumsum', n, function() local _ = torch.cumsum(x) end)
   report('reduce/sum_dim', n, function() local _ = A:sum(2) end)
   report('reduce/max_dim', n, function() local _ = A:max(2) end)
   report('reduce/sort', n, function() local _ = torch.sort(x) end)
   report('reduce/int_sum', n, function() local _ = xi:sum() end)
   report('reduce/cumprod', n, function() local _ = torch.cumprod(y) end)
   report('reduce/norm3', n, function() local _ = x:norm(3) end)
   report('reduce/dist1', n, function() local _ = x:dist(y, 1) end)
   report('reduce/sum_dim1', n, function() local _ = A:sum(1) end)
   report('reduce/mean_dim', n, function() local _ = A:mean(2) end)
   report('reduce/var_dim', n, function() local _ = A:var(2) end)
   report('reduce/norm_dim', n, function() local _ = A:norm(2, 2) end)
   report('reduce/max_dim1', n, function() local _ = A:max(1) end)
   report('reduce/min_dim', n, function() local _ = A:min(2) end)
   report('reduce/sum_transposed', n, function() local _ = A:t():sum() end)
   report('reduce/sum_dim_transposed', n, function() local _ = A:t():sum(2) end)
   report('reduce/sort_desc', n, function() local _ = torch.sort(x, true) end)
   report('reduce/float_sum_dim', n, function() local _ = xf:view(m, -1):sum(1) end)
   -- comparisons
   report('compare/gt_number', n, function() local _ = torch.gt(x, 0.5) end)
   report('compare/lt_tensor', n, function() local _ = torch.lt(x, y) end)
   report('compare/eq_number', n, function() local _ = torch.eq(xi, 7) end)
   report('compare/all', n, function() local _ = mask:all() end)
   report('compare/any', n, function() local _ = mask:any() end)
   report('compare/ne_tensor', n, function() local _ = torch.ne(x, y) end)
   report('compare/le_number', n, function() local _ = torch.le(x, 0.5) end)
   report('compare/ge_tensor', n, function() local _ = torch.ge(x, y) end)
   report('compare/float_lt', n, function() local _ = torch.lt(xf, 0.5) end)
   report('compare/mask_sum', n, function() local _ = torch.gt(x, 0.5):sum() end)
   -- copies between types, fill
   report('copy/double', n, function() r:copy(x) end)
   report('copy/float_from_double', n, function() xf:copy(x) end)
   report('copy/double_from_float', n, function() r:copy(xf) end)
   report('copy/int_from_double', n, function() xi:copy(x) end)
   report('copy/double_from_byte', n, function() r:copy(xb) end)
   report('copy/transposed', n, function() A:copy(B:t()) end)
   report('copy/into_narrowed', n, function() W:narrow(2, m + 1, m):copy(A) end)
   report('copy/clone', n, function() local _ = x:clone() end)
   report('copy/fill', n, function() r:fill(3) end)
   report('copy/zero', n, function() r:zero() end)
   report('copy/new_tensor', n, function() local _ = torch.Tensor(n) end)
   -- indexing family
   report('index/narrow_select', n, function() local _ = x:narrow(1, 2, 5):select(1, 1) end)
   report('index/index', n, function() local _ = A:index(1, idx) end)
   report('index/indexCopy', n, function() A:indexCopy(1, idx, B:index(1, idx)) end)
   report('index/indexAdd', n, function() A:indexAdd(1, idx, B:index(1, idx)) end)
   report('index/indexFill', n, function() A:indexFill(1, idx, 2) end)
   report('index/gather', n, function() local _ = A:gather(2, gidx) end)
   report('index/scatter', n, function() A:scatter(2, gidx, B) end)
   report('index/maskedSelect', n, function() local _ = x:maskedSelect(mask) end)
   report('index/maskedFill', n, function() r:maskedFill(mask, 1) end)
   report('index/maskedCopy', n, function() r:maskedCopy(mask, y) end)
   report('index/nonzero', n, function() local _ = torch.nonzero(mask) end)
   -- BLAS levels 1 to 3
   report('blas/dot', n, function() local _ = x:dot(y) end)
   report('blas/mv', n, function() local _ = torch.mv(A, v) end)
   report('blas/addmv', n, function() v:addmv(0.5, A, w) end)
   report('blas/ger', n, function() local _ = torch.ger(v, w) end)
   report('blas/mm', n, function() local _ = torch.mm(A, B) end)
   report('blas/addmm', n, function() A:addmm(0.5, B, B) end)
   -- random fills
   report('random/uniform', n, function() r:uniform() end)
   report('random/normal', n, function() r:normal() end)
   report('random/rand', n, function() local _ = torch.rand(n) end)
   report('random/randn', n, function() local _ = torch.randn(n) end)
   report('random/random', n, function() xi:random(1, 100) end)
   report('random/bernoulli', n, function() r:bernoulli(0.3) end)
   A:copy(B)
end

-- convolutions: image m x m by kernel k x k
for _, c in ipairs{{32, 3}, {100, 5}, {300, 7}, {1000, 10}} do
   local m, k = c[1], c[2]
   local img, ker = torch.rand(m, m), torch.rand(k, k)
   report('conv/conv2_valid_k' .. k, m * m, function() local _ = torch.conv2(img, ker) end)
   report('conv/conv2_full_k' .. k, m * m, function() local _ = torch.conv2(img, ker, 'F') end)
   report('conv/xcorr2_valid_k' .. k, m * m, function() local _ = torch.xcorr2(img, ker) end)
end
