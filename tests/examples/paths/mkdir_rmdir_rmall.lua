-- paths.mkdir, paths.rmdir and paths.rmall(s, 'yes') from the Directory
-- Functions section (run in an empty directory); dir() lists . and ..
print(paths.mkdir('d'))
print(paths.mkdir('d/sub'))
local f = io.open('d/a.txt', 'w') f:write('x') f:close()
local names = paths.dir('d')
table.sort(names)
print(table.concat(names, ' '))
print(paths.dir('missing'))
for file in paths.iterfiles('d') do print(file) end
print(paths.rmdir('d/sub'))
print(paths.dirp('d/sub'))
print(paths.rmall('d', 'no'))
print(paths.rmall('d', 'yes'))
print(paths.dirp('d'))
