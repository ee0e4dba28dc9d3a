module github.com/twice-cli/twice/detect/testdata/realsource/gen

go 1.26

require (
	github.com/dapr/durabletask-go v0.10.1
	google.golang.org/protobuf v1.36.12
)

require (
	golang.org/x/net v0.34.0 // indirect
	golang.org/x/sys v0.29.0 // indirect
	golang.org/x/text v0.21.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20250124145028-65684f501c47 // indirect
	google.golang.org/grpc v1.70.0 // indirect
)
