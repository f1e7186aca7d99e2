-- torch.Tester: Torch7's unit-test runner.  Tests are functions added one by
-- one or as a torch.TestSuite; `run` calls each under xpcall, prints one line
-- per test turning from [WAIT] into [PASS], [FAIL], [ERROR] or [SKIP], then
-- the summary and a section per failure, and raises an error when anything
-- failed, so that `th tests.lua` exits non-zero.  Tests run in the order of
-- their names (the original followed the hash order of its table).
local ffi = require 'ffi'
local torch = require 'torch'
local internal = require 'torch.internal'

require 'torch.TestSuite'

local TD, SD = internal.tensors, internal.storages
local type, pairs, ipairs, tostring, tonumber, xpcall, pcall, error, assert, select, unpack =
      type, pairs, ipairs, tostring, tonumber, xpcall, pcall, error, assert, select, unpack
local abs, max, format, rep, write, sort = math.abs, math.max, string.format, string.rep, io.write, table.sort

local Tester = torch.class('torch.Tester')

local NCOLS = 80

function Tester:__init()
   self.errors = {}
   self.tests = {}
   self.warnings = {}
   self._warningCount = {}
   self.disabledTests = {}
   self._currentTestName = ''
   -- as the original: assertTensorEq compares contents, ignoring the shapes
   -- ({{1}} equals {1}), with a warning
   self._assertTensorEqIgnoresDims = true
end

function Tester:setEarlyAbort(earlyAbort)
   self.earlyAbort = earlyAbort
end

function Tester:setRethrowErrors(rethrow)
   self.rethrow = rethrow
end

function Tester:setSummaryOnly(summaryOnly)
   self.summaryOnly = summaryOnly
end

---------------------------------------------------------------------------
-- recording results
---------------------------------------------------------------------------

local function count(t, name)
   t[name] = (t[name] or 0) + 1
end

function Tester:_success()
   self.assertionPass = self.assertionPass or {}
   count(self.assertionPass, self._currentTestName)
   return true
end

-- where an assert failed or warned, as Torch7 printed it: the last two lines
-- of the traceback from the assert's caller (withassert: from the Tester's
-- method it called) down to the test function, which the xpcall ran;
-- nothing outside a run (no xpcall)
local function testframes(withassert)
   local lines, method = {'stack traceback:'}, nil
   local stack = internal.traceback('', 2)
   if not stack:find("in function 'xpcall'", 1, true) then return '' end
   for frame in stack:gmatch('\n(\t[^\n]+)') do
      if frame:find("in function 'xpcall'", 1, true) then break end
      if frame:find('torch/Tester.lua:', 1, true) then
         method = frame
      else
         if withassert and method and #lines == 1 then lines[2] = method end
         lines[#lines + 1] = frame
      end
   end
   return table.concat(lines, '\n', math.max(1, #lines - 1))
end

function Tester:_failure(message)
   if self.rethrow then error(message, 2) end
   local name = self._currentTestName
   self.assertionFail = self.assertionFail or {}
   count(self.assertionFail, name)
   self.errors[#self.errors + 1] = name .. '\n' .. message .. '\n' .. testframes()
   return false
end

function Tester:_warning(message)
   local name = self._currentTestName
   count(self._warningCount, name)
   if name == '' then            -- outside the tests (add)
      self.warnings[#self.warnings + 1] = message .. '\n'
   else
      self.warnings[#self.warnings + 1] = name .. '\n' .. message .. '\n' .. testframes(true)
   end
end

function Tester:_assert_sub(condition, message)
   if condition then
      return self:_success()
   end
   return self:_failure(message)
end

---------------------------------------------------------------------------
-- optional arguments of the asserts
---------------------------------------------------------------------------

-- the message argument, followed by a newline when given (trailing nils
-- after it pass, as the original's check of the arguments' length let them)
local function getMessage(message, ...)
   assert(#{...} == 0, 'Unexpected arguments passed to test function')
   if message then
      assert(type(message) == 'string', 'message parameter must be a string')
      if message ~= '' then return message .. '\n' end
   end
   return ''
end

-- a tolerance and a message, in either order.  An argument of the wrong
-- kind is an error at the level it names, if a number, as the original
-- passed it to error() (a second tolerance of 2 points into this file);
-- other arguments broke the original's error() ("bad argument #2 to
-- 'error'"): here, the error is at the assert's caller
local function getToleranceAndMessage(defaultTolerance, ...)
   local message, tolerance
   for _, a in ipairs({...}) do
      if type(a) == 'string' then
         if message then error('Unexpected string argument; already have message', tonumber(a) or 3) end
         message = a .. '\n'
      elseif type(a) == 'number' then
         if tolerance then error('Unexpected number argument; already have tolerance', a) end
         assert(a >= 0, 'tolerance cannot be negative')
         tolerance = a
      else
         error('Unrecognized argument; should be a tolerance or message', 3)
      end
   end
   return tolerance or defaultTolerance, message or ''
end

---------------------------------------------------------------------------
-- equality of tensors, storages, tables and values
---------------------------------------------------------------------------

local check = {}

local f32 = ffi.new('float[1]')

-- the largest element-wise |a - b| of two tensors with as many elements; of
-- FloatTensors, each a - b rounded to a float, as the original subtracted
-- (integers exactly: the original's int and long differences overflowed,
-- 0 - (-2^31) passing for equal)
local function maxdiff(da, db)
   local oa, n = internal.offsets(da)
   local ob = internal.offsets(db)
   local pa, pb = da.st.ptr, db.st.ptr
   local float = da.T.name == 'Float'
   local m = 0
   for k = 1, n do
      local diff = tonumber(pa[oa[k]]) - tonumber(pb[ob[k]])
      if float then
         f32[0] = diff
         diff = f32[0]
      end
      diff = abs(diff)
      if diff ~= diff then return diff end
      m = max(m, diff)
   end
   return m
end

local function sameFormatEq(da, db, tolerance, negate, what)
   local err = maxdiff(da, db)
   local success = err <= tolerance
   if negate then success = not success end
   if not success then
      return false, format('%s%s violation: max diff=%s, tolerance=%s', what,
                           negate and 'NE(==)' or 'EQ(==)', tostring(err), tostring(tolerance))
   end
   return true
end

function check.areTensorsEq(ta, tb, tolerance, negate, ignoreTensorDims)
   local da, db = TD[ta], TD[tb]
   if not ignoreTensorDims and da.nd ~= db.nd then
      return negate, 'The tensors have different dimensions'
   end
   if da.T ~= db.T then
      return negate, 'The tensors have different types'
   end
   if da.nd == 0 and db.nd == 0 then
      return not negate, 'Both tensors are empty'
   end
   local samesize
   if ignoreTensorDims then
      samesize = internal.nelement(da) == internal.nelement(db)
   else
      samesize = internal.samesize(da, db)
   end
   if not samesize then
      return negate, 'The tensors have different sizes'
   end
   return sameFormatEq(da, db, tolerance, negate, 'Tensor')
end

-- sb may be a tensor, whose size (a LongStorage) is never a storage's (the
-- original compared them so)
function check.areStoragesEq(sa, sb, tolerance, negate)
   if not torch.isStorage(sb) or sa:size() ~= sb:size() then
      return negate, 'The storages have different sizes'
   end
   if torch.type(sa) ~= torch.type(sb) then
      return negate, 'The storages have different types'
   end
   if sa:size() == 0 then return not negate, 'Both storages are empty' end
   local ta, tb = internal.emptytensor(SD[sa].T), internal.emptytensor(SD[sb].T)
   internal.setmeta(TD[ta], SD[sa], 0, {sa:size()}, 1)
   internal.setmeta(TD[tb], SD[sb], 0, {sb:size()}, 1)
   return sameFormatEq(TD[ta], TD[tb], tolerance, negate, 'Storage')
end

-- deep equality: types must match, numbers within tolerance, tables key by key
function check.areEq(got, expected, tolerance, negate)
   if type(got) ~= type(expected) then
      if negate then return true end
      return false, 'EQ failed: values have different types (first: ' .. type(got)
                    .. ', second: ' .. type(expected) .. ')'
   elseif type(got) == 'number' then
      local ok = abs(got - expected) <= tolerance
      if negate then ok = not ok end
      if ok then return true end
      local msg = format(negate and 'NE failed: %s == %s' or 'EQ failed: %s ~= %s',
                         tostring(got), tostring(expected))
      if tolerance > 0 then msg = msg .. ' with tolerance=' .. tostring(tolerance) end
      return false, msg
   elseif type(expected) == 'table' then
      return check.areTablesEq(got, expected, tolerance, negate)
   elseif torch.isTensor(got) and torch.isTensor(expected) then
      return check.areTensorsEq(got, expected, tolerance, negate)
   elseif torch.isStorage(got) and (torch.isStorage(expected) or torch.isTensor(expected)) then
      return check.areStoragesEq(got, expected, tolerance, negate)
   end
   local ok = got == expected
   if negate then ok = not ok end
   if ok then return true end
   return false, format(negate and 'NE failed: %s (%s) == %s (%s)' or 'EQ failed: %s (%s) ~= %s (%s)',
                        tostring(got), type(got), tostring(expected), type(expected))
end

-- tables compare breadth first, so the reported difference is the shallowest
function check.areTablesEq(t1, t2, tolerance, negate)
   local queue, head = {{t1, t2}}, 1
   while queue[head] do
      local a, b, location = unpack(queue[head])
      head = head + 1
      local function where(key)
         return location and location .. '.' .. tostring(key) or tostring(key)
      end
      for key, v1 in pairs(a) do
         local v2 = b[key]
         if v2 == nil then
            return negate, format('Entry %s missing in second table (is %s in first)', where(key), tostring(v1))
         end
         if type(v1) == 'table' and type(v2) == 'table' then
            queue[#queue + 1] = {v1, v2, where(key)}
         else
            local ok, message = check.areEq(v1, v2, tolerance, false)
            if not ok then
               return negate, 'At table location ' .. where(key) .. ': ' .. message
            end
         end
      end
      for key, v2 in pairs(b) do
         if a[key] == nil then
            return negate, format('Entry %s missing in first table (is %s in second)', where(key), tostring(v2))
         end
      end
   end
   return not negate, 'The tables are equal'
end

---------------------------------------------------------------------------
-- the asserts
---------------------------------------------------------------------------

function Tester:assert(condition, ...)
   local message = getMessage(...)
   if type(condition) ~= 'boolean' then
      self:_warning(' :assert should only be used for boolean conditions. '
                    .. 'To check for non-nil variables, do this explicitly: '
                    .. 'Tester:assert(var ~= nil).')
   end
   return self:_assert_sub(condition, format('%sBOOL violation condition=%s', message, tostring(condition)))
end

function Tester:_eqOrNeq(got, expected, negate, ...)
   local tolerance, message = getToleranceAndMessage(0, ...)
   local success, sub = check.areEq(got, expected, tolerance, negate)
   return self:_assert_sub(success, message .. (sub or ''))
end

function Tester:assertGeneralEq(got, expected, ...)
   return self:_eqOrNeq(got, expected, false, ...)
end

function Tester:assertGeneralNe(got, unexpected, ...)
   return self:_eqOrNeq(got, unexpected, true, ...)
end

Tester.eq = Tester.assertGeneralEq
Tester.ne = Tester.assertGeneralNe

-- assertlt, assertgt, assertle, assertge, asserteq, assertne on plain
-- values; each compares in its own body, so that an error comparing (a
-- table with a number) comes from the assert, as in the original
local function compare(self, holds, what, a, violated, b, message)
   return self:_assert_sub(holds, format('%s%s failed: %s %s %s', message, what, tostring(a), violated,
                                         tostring(b)))
end

function Tester:assertlt(a, b, ...)
   local message = getMessage(...)
   return compare(self, a < b, 'LT', a, '>=', b, message)
end

function Tester:assertgt(a, b, ...)
   local message = getMessage(...)
   return compare(self, a > b, 'GT', a, '<=', b, message)
end

function Tester:assertle(a, b, ...)
   local message = getMessage(...)
   return compare(self, a <= b, 'LE', a, '>', b, message)
end

function Tester:assertge(a, b, ...)
   local message = getMessage(...)
   return compare(self, a >= b, 'GE', a, '<', b, message)
end

function Tester:asserteq(a, b, ...)
   local message = getMessage(...)
   return compare(self, a == b, 'EQ', a, '~=', b, message)
end

function Tester:assertne(a, b, ...)
   local message = getMessage(...)
   -- (as the original: two tables, or anything after a userdata)
   if type(a) == 'table' and type(b) == 'table' or type(a) == 'userdata' then
      self:_warning(' :assertne should only be used to compare basic lua objects (numbers, '
                    .. 'booleans, etc). Consider using either :assertGeneralNe or :assert(a ~= b).')
   end
   return compare(self, a ~= b, 'NE', a, '==', b, message)
end

function Tester:assertalmosteq(a, b, ...)
   local tolerance, message = getToleranceAndMessage(1e-16, ...)
   return self:_assert_sub(abs(a - b) <= tolerance,
      format('%sALMOST_EQ failed: %s ~= %s with tolerance=%s', message, tostring(a), tostring(b),
             tostring(tolerance)))
end

function Tester:_assertTensorEqOrNeq(ta, tb, negate, ...)
   assert(torch.isTensor(ta), 'First argument should be a Tensor')
   assert(torch.isTensor(tb), 'Second argument should be a Tensor')
   local tolerance, message = getToleranceAndMessage(0, ...)
   local success, sub = check.areTensorsEq(ta, tb, tolerance, negate, self._assertTensorEqIgnoresDims)
   if self._assertTensorEqIgnoresDims and not negate and success and not ta:isSameSizeAs(tb) then
      self:_warning('Tensors have the same content but different dimensions. For backwards '
                    .. 'compatibility, they are considered equal, but this may change in the '
                    .. 'future. Consider using :eq to check for equality instead.')
   end
   return self:_assert_sub(success, message .. (sub or ''))
end

function Tester:assertTensorEq(ta, tb, ...)
   return self:_assertTensorEqOrNeq(ta, tb, false, ...)
end

function Tester:assertTensorNe(ta, tb, ...)
   return self:_assertTensorEqOrNeq(ta, tb, true, ...)
end

function Tester:_assertTableEqOrNeq(ta, tb, negate, ...)
   assert(type(ta) == 'table', 'First argument should be a Table')
   assert(type(tb) == 'table', 'Second argument should be a Table')
   return self:_eqOrNeq(ta, tb, negate, ...)
end

function Tester:assertTableEq(ta, tb, ...)
   return self:_assertTableEqOrNeq(ta, tb, false, ...)
end

function Tester:assertTableNe(ta, tb, ...)
   return self:_assertTableEqOrNeq(ta, tb, true, ...)
end

-- assertErrorObj(f, errcomp): f must raise an error e with errcomp(e) true
function Tester:assertErrorObj(f, errcomp, ...)
   local message = getMessage(...)
   local status, err = pcall(f)
   return self:_assert_sub(not status and errcomp(err),
                           format('%sERROR violation: err=%s', message, tostring(err)))
end

function Tester:assertError(f, ...)
   return self:assertErrorObj(f, function() return true end, ...)
end

function Tester:assertNoError(f, ...)
   local message = getMessage(...)
   local status, err = pcall(f)
   return self:_assert_sub(status, format('%sERROR violation: err=%s', message, tostring(err)))
end

function Tester:assertErrorMsg(f, errmsg, ...)
   return self:assertErrorObj(f, function(err) return err == errmsg end, ...)
end

function Tester:assertErrorPattern(f, errPattern, ...)
   return self:assertErrorObj(f, function(err) return string.find(err, errPattern) ~= nil end, ...)
end

---------------------------------------------------------------------------
-- adding and running tests
---------------------------------------------------------------------------

-- add(f, name) or add(testsuite or table of functions); `_setUp` and
-- `_tearDown` run around each test with its name
function Tester:add(f, name)
   if type(f) == 'table' then
      assert(name == nil, 'Name parameter is forbidden for a table of tests, '
                          .. 'since its use is ambiguous')
      if f.__isTestSuite then
         f = f.__tests
      else
         self:_warning('Should use TestSuite rather than plain lua table')
      end
      for k, v in pairs(f) do
         assert(type(v) ~= 'table', 'Nested sets of tests are not supported')
         self:add(v, k)
      end
      return self
   end
   assert(type(f) == 'function', 'Only tables of functions and functions supported')
   if name == '_setUp' then
      assert(not self._setUp, 'Only one set-up function allowed')
      self._setUp = f
   elseif name == '_tearDown' then
      assert(not self._tearDown, 'Only one tear-down function allowed')
      self._tearDown = f
   else
      name = name or 'unknown'
      if self.tests[name] ~= nil then
         error('Test with name ' .. name .. ' already exists!')
      end
      self.tests[name] = f
   end
   return self
end

function Tester:disable(testNames)
   if type(testNames) == 'string' then testNames = {testNames} end
   assert(type(testNames) == 'table', 'Expecting name or list for disable')
   for _, name in ipairs(testNames) do
      assert(self.tests[name], "Unrecognized test '" .. name .. "'")
      self.disabledTests[name] = true
   end
   return self
end

-- the names to run: all, or those matching each of the given patterns
function Tester:_getTests(testNames)
   local names = {}
   if testNames == nil then
      for name in pairs(self.tests) do names[#names + 1] = name end
   else
      if type(testNames) == 'string' then testNames = {testNames} end
      assert(type(testNames) == 'table', 'Only accept a name or table of test names (or nil for all tests)')
      local chosen = {}
      for _, pattern in ipairs(testNames) do
         local found = false
         for name in pairs(self.tests) do
            if string.match(name, pattern) then   -- (a number names a test too)
               found = true
               if not chosen[name] then
                  chosen[name] = true
                  names[#names + 1] = name
               end
            end
         end
         assert(found, "Couldn't find test '" .. pattern .. "'")
      end
   end
   sort(names, function(a, b) return tostring(a) < tostring(b) end)   -- (numbers too)
   return names
end

local function pluralize(num, str)
   local stem = num .. ' ' .. str
   return num == 1 and stem or stem .. 's'
end

-- Torch7's Tester coloured its output with ANSI codes whatever the output
-- was (a terminal or a log file): th prints the same bytes
local colours = {cyan = '0;36', green = '0;32', red = '0;31', magenta = '0;35', yellow = '0;33'}
local function paint(colour, s) return '\27[' .. colours[colour] .. 'm' .. s .. '\27[0m' end
local function bracket(s, colour) return '[' .. paint(colour, s) .. ']' end

-- the traceback of an error in a test, as the original's debug.traceback
-- gave it: th's own frames as the C functions they stand for, but this
-- file's, Lua in the original too; an error object neither a string nor a
-- number comes back as it was
local TESTER = {[debug.getinfo(1, 'S').short_src] = true}
local function traceback(msg)
   if type(msg) ~= 'string' and type(msg) ~= 'number' then return msg end
   local text = require('trepl').traceback(tostring(msg), 3, TESTER)
   return text   -- (not a tail call: level 3 is the function that raised the error)
end

function Tester:_pcall(f)
   local nerr = #self.errors
   local stat, result = xpcall(f, traceback)
   if not stat then
      self.errors[#self.errors + 1] = self._currentTestName .. '\n Function call failed\n' .. tostring(result) .. '\n'
   end
   return stat, result, stat and nerr == #self.errors
end

function Tester:_run(names)
   local ntests = #names
   local width = #tostring(ntests)
   local cfmt = '%' .. width .. 'd/' .. ntests .. ' '
   write('Running ' .. pluralize(ntests, 'test') .. '\n')
   for i, name in ipairs(names) do
      self._currentTestName = name
      local strinit = paint('cyan', format(cfmt, i)) .. name .. ' '
                      .. rep('.', NCOLS - 6 - 2 - (width * 2 + 2) - #tostring(name)) .. ' '
      write(strinit .. bracket('WAIT', 'cyan'))
      io.flush()

      local status, pass
      local skip = self.disabledTests[name]
      if not skip then
         if self._setUp then self._setUp(name) end
         if self.rethrow then
            local nerr = #self.errors
            self.tests[name]()
            status, pass = true, nerr == #self.errors
         else
            local _
            status, _, pass = self:_pcall(self.tests[name])
         end
         if self._tearDown then self._tearDown(name) end
      end

      write('\r' .. strinit)
      if skip then
         write(bracket('SKIP', 'yellow'))
      elseif not status then
         self.testError[name] = 1
         write(bracket('ERROR', 'magenta'))
      elseif not pass then
         write(bracket('FAIL', 'red'))
      else
         write(bracket('PASS', 'green'))
         if self._warningCount[name] > 0 then
            write('\n' .. rep(' ', NCOLS - 10) .. bracket('+warning', 'yellow'))
         end
      end
      write('\n')
      io.flush()

      if self.earlyAbort and i < ntests and not skip and (not status or not pass) then
         write('Aborting on first error, not all tests have been executed\n')
         break
      end
      collectgarbage()
   end
end

function Tester:_report(names)
   local nfailures, nerrors, nskipped, nwarnings, nasserts = 0, 0, 0, 0, 0
   for _, name in ipairs(names) do
      nasserts = nasserts + self.assertionFail[name] + self.assertionPass[name]
      if self.assertionFail[name] > 0 then nfailures = nfailures + 1 end
      if self.testError[name] > 0 then nerrors = nerrors + 1 end
      if self._warningCount[name] > 0 then nwarnings = nwarnings + 1 end
      if self.disabledTests[name] then nskipped = nskipped + 1 end
   end
   -- warnings given outside any test (e.g. by add)
   nwarnings = nwarnings + (self._warningCount[''] or 0)
   self.countasserts = nasserts

   write('Completed ' .. pluralize(nasserts, 'assert'))
   write(' in ' .. pluralize(#names, 'test') .. ' with ')
   write(paint(nfailures > 0 and 'red' or 'green', pluralize(nfailures, 'failure')) .. ' and '
         .. paint(nerrors > 0 and 'magenta' or 'green', pluralize(nerrors, 'error')))
   if nwarnings > 0 then write(' and ' .. paint('yellow', pluralize(nwarnings, 'warning'))) end
   if nskipped > 0 then write(' and ' .. paint('yellow', nskipped .. ' disabled')) end
   write('\n')

   -- a section per failure or error, then per warning (of every run so far)
   if not self.summaryOnly then
      local dashes, first = rep('-', NCOLS) .. '\n', true
      for _, sections in ipairs({self.errors, self.warnings}) do
         for _, text in ipairs(sections) do
            if first then write(dashes) end
            first = false
            write(text .. '\n' .. dashes)
         end
      end
   end
end

-- run([names or patterns]): run the tests, print the report; an error when
-- any test failed or raised an error
function Tester:run(testNames)
   local names = self:_getTests(testNames)
   self.assertionPass, self.assertionFail, self.testError = {}, {}, {}
   for _, name in ipairs(names) do
      self.assertionPass[name] = 0
      self.assertionFail[name] = 0
      self.testError[name] = 0
      self._warningCount[name] = 0
   end
   self:_run(names)
   self:_report(names)
   for _, name in ipairs(names) do
      if self.assertionFail[name] ~= 0 or self.testError[name] ~= 0 then
         error('An error was found while running tests!', 2)
      end
   end
   return 0
end

return Tester
