-- paths.iterdirs(".") and paths.iterfiles(".") from the Directory Functions section
paths.mkdir('adir')
io.open('afile', 'w'):close()
for dir in paths.iterdirs(".") do
    print(dir)
end
for file in paths.iterfiles(".") do
    print(file)
end
print(paths.rmall('adir', 'yes'))
