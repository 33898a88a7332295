// Command build-image writes the geodisaster container image, offline,
// from the static binary alone: an OCI image layout whose one layer holds
// the binary at /geodisaster, its entrypoint (see docs/deploy/oci-image.md).
//
//	CGO_ENABLED=0 GOOS=linux go build -o geodisaster ./cmd/geodisaster
//	go run ./internal/ociimage/cmd/build-image --binary geodisaster --out geodisaster-oci --tag v1
//	skopeo copy oci:geodisaster-oci:v1 docker://registry.example/geodisaster:v1
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/geodisaster/engine/internal/ociimage"
)

func main() {
	bin := flag.String("binary", "", "the static Linux geodisaster binary (required)")
	out := flag.String("out", "", "the OCI layout directory to write; absent or empty (required)")
	tag := flag.String("tag", "latest", "the image's tag in the layout")
	version := flag.String("version", "", "org.opencontainers.image.version annotation (default: the tag)")
	flag.Parse()
	if *bin == "" || *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: build-image --binary FILE --out DIR [--tag TAG] [--version V]")
		os.Exit(2)
	}
	b, err := os.ReadFile(*bin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "build-image:", err)
		os.Exit(5)
	}
	if *version == "" {
		*version = *tag
	}
	d, err := ociimage.Write(*out, b, ociimage.Options{Tag: *tag, Annotations: map[string]string{
		"org.opencontainers.image.title":   "geodisaster",
		"org.opencontainers.image.version": *version,
	}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "build-image:", err)
		os.Exit(5)
	}
	fmt.Printf("wrote %s (%s/%s) to %s: manifest %s\n", *tag, d.Platform.OS, d.Platform.Architecture, *out, d.Digest)
}
