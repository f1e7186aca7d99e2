-- paths.files(".") from the Directory Functions section (run in an empty directory)
for f in paths.files(".") do
    print(f)
end
