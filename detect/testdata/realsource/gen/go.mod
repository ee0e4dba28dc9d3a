// The generator's module root. Each durabletask-go version has its own
// go.<version>.mod (generate.sh passes it with -modfile).
module github.com/twice-cli/twice/detect/testdata/realsource/gen

go 1.26
