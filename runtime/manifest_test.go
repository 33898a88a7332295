package runtime_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/geodisaster/engine/runtime"
)

func TestReadManifestIsStrict(t *testing.T) {
	dir := t.TempDir()
	good := `{"format":"` + runtime.ManifestFormat + `","engine":"x","shard":{"index":1,"count":2},"corpus":{"path":"p","sha256":"` + strings.Repeat("0", 64) + `","status":"FIXTURE"},"filters":{},"selected":{"records":0,"ids_sha256":""},"replayed":{"records":0,"ids_sha256":""},"files":{}}`
	for name, doc := range map[string]string{
		"unknown field": strings.Replace(good, `"engine"`, `"engin":"y","engine"`, 1),
		"wrong type":    strings.Replace(good, `"index":1`, `"index":"1"`, 1),
		"bad shard":     strings.Replace(good, `"index":1`, `"index":2`, 1),
		"other format":  strings.Replace(good, runtime.ManifestFormat, "other/1", 1),
		"trailing data": good + "{}",
	} {
		os.WriteFile(filepath.Join(dir, runtime.ManifestFile), []byte(doc), 0o644)
		if _, err := runtime.ReadManifest(dir); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	os.WriteFile(filepath.Join(dir, runtime.ManifestFile), []byte(good), 0o644)
	if m, err := runtime.ReadManifest(dir); err != nil || m.Shard.String() != "1/2" {
		t.Errorf("good manifest: %+v %v", m, err)
	}
}
