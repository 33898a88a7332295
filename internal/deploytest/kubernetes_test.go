package deploytest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/geodisaster/engine/internal/clitest"
)

const manifestsDir = "../../docs/deploy/kubernetes"

// object is one decoded document of a manifest file.
type object struct {
	file string
	kind string
	job  *batchv1.Job
	pvc  *corev1.PersistentVolumeClaim
}

// decodeStrict decodes one YAML document into v: unknown or duplicated
// fields and wrong types are errors.
func decodeStrict(doc []byte, v any) error {
	return yaml.UnmarshalStrict(doc, v)
}

// splitDocs splits a YAML stream at its "---" lines.
func splitDocs(b []byte) [][]byte {
	var docs [][]byte
	for _, d := range bytes.Split(append([]byte("\n"), b...), []byte("\n---")) {
		if len(bytes.TrimSpace(stripComments(d))) > 0 {
			docs = append(docs, d)
		}
	}
	return docs
}

func stripComments(b []byte) []byte {
	var out []byte
	for _, l := range bytes.Split(b, []byte("\n")) {
		if t := bytes.TrimSpace(l); len(t) > 0 && t[0] != '#' {
			out = append(append(out, l...), '\n')
		}
	}
	return out
}

func readManifests(t *testing.T) []object {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(manifestsDir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in %s (%v)", manifestsDir, err)
	}
	var objs []object
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, doc := range splitDocs(b) {
			var tm metav1.TypeMeta
			if err := yaml.Unmarshal(doc, &tm); err != nil {
				t.Fatalf("%s document %d: %v", f, i+1, err)
			}
			o := object{file: filepath.Base(f), kind: tm.APIVersion + "/" + tm.Kind}
			switch o.kind {
			case "batch/v1/Job":
				o.job = &batchv1.Job{}
				err = decodeStrict(doc, o.job)
			case "v1/PersistentVolumeClaim":
				o.pvc = &corev1.PersistentVolumeClaim{}
				err = decodeStrict(doc, o.pvc)
			default:
				err = fmt.Errorf("unexpected kind %s", o.kind)
			}
			if err != nil {
				t.Fatalf("%s document %d (%s): %v", f, i+1, o.kind, err)
			}
			objs = append(objs, o)
		}
	}
	return objs
}

// The decoder really is strict: an unknown field and a wrong type fail.
func TestStrictDecodingRefusesMistakes(t *testing.T) {
	for name, doc := range map[string]string{
		"unknown field": "apiVersion: batch/v1\nkind: Job\nspec:\n  completion: 4\n",
		"wrong type":    "apiVersion: batch/v1\nkind: Job\nspec:\n  completions: four\n",
		"duplicate key": "apiVersion: batch/v1\nkind: Job\nspec:\n  completions: 4\n  completions: 5\n",
	} {
		if err := decodeStrict([]byte(doc), &batchv1.Job{}); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}

func flagValue(args []string, name string) (string, bool) {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v, true
		}
	}
	return "", false
}

func TestKubernetesManifests(t *testing.T) {
	objs := readManifests(t)
	pvcs := map[string]*corev1.PersistentVolumeClaim{}
	var replay, merge *batchv1.Job
	for _, o := range objs {
		switch {
		case o.pvc != nil:
			pvcs[o.pvc.Name] = o.pvc
		case o.job != nil && o.job.Spec.CompletionMode != nil && *o.job.Spec.CompletionMode == batchv1.IndexedCompletion:
			replay = o.job
		case o.job != nil:
			merge = o.job
		}
	}
	if replay == nil || merge == nil || len(pvcs) != 2 {
		t.Fatalf("want an Indexed replay Job, a merge Job and two PVCs; got %d objects", len(objs))
	}
	if m := pvcs["geodisaster-out"]; m == nil || !slices.Contains(m.Spec.AccessModes, corev1.ReadWriteMany) {
		t.Error("the output PVC must be ReadWriteMany (every index writes at once)")
	}
	if m := pvcs["geodisaster-release"]; m == nil || !slices.Contains(m.Spec.AccessModes, corev1.ReadOnlyMany) {
		t.Error("the release PVC must be ReadOnlyMany")
	}

	s := replay.Spec
	n := int(*s.Completions)
	if s.Parallelism == nil || int(*s.Parallelism) > n || s.BackoffLimitPerIndex == nil || s.TTLSecondsAfterFinished == nil {
		t.Errorf("replay Job: parallelism, backoffLimitPerIndex or ttlSecondsAfterFinished missing")
	}
	c := s.Template.Spec.Containers
	if len(c) != 1 {
		t.Fatalf("replay Job has %d containers", len(c))
	}
	replayArgs := append(append([]string(nil), c[0].Command...), c[0].Args...)
	if strings.Join(c[0].Command, " ") != "/geodisaster" || slices.ContainsFunc(replayArgs, func(a string) bool { return strings.Contains(a, "/bin/sh") || strings.Contains(a, "$") }) {
		t.Errorf("the replay container must run /geodisaster itself, no shell: %q", replayArgs)
	}
	if v, _ := flagValue(c[0].Args, "shard-from-env"); v != "JOB_COMPLETION_INDEX" {
		t.Errorf("--shard-from-env=%q", v)
	}
	if v, _ := flagValue(c[0].Args, "shard-count"); v != strconv.Itoa(n) {
		t.Errorf("--shard-count=%s but completions %d", v, n)
	}
	if v, _ := flagValue(c[0].Args, "output-dir"); !strings.Contains(v, "{shard}") {
		t.Errorf("--output-dir=%q has no {shard}", v)
	}
	// The failure policy: exit 1 (complete, records incorrect) fails the
	// index without a retry; 2 fails the Job; disruptions are ignored.
	actions := map[int32]batchv1.PodFailurePolicyAction{}
	ignoresDisruption := false
	if s.PodFailurePolicy == nil {
		t.Fatal("replay Job has no podFailurePolicy")
	}
	for _, r := range s.PodFailurePolicy.Rules {
		if r.OnExitCodes != nil && r.OnExitCodes.Operator == batchv1.PodFailurePolicyOnExitCodesOpIn {
			for _, v := range r.OnExitCodes.Values {
				actions[v] = r.Action
			}
		}
		for _, p := range r.OnPodConditions {
			if p.Type == corev1.DisruptionTarget && r.Action == batchv1.PodFailurePolicyActionIgnore {
				ignoresDisruption = true
			}
		}
	}
	if actions[1] != batchv1.PodFailurePolicyActionFailIndex || actions[2] != batchv1.PodFailurePolicyActionFailJob || !ignoresDisruption {
		t.Errorf("podFailurePolicy: exit 1 -> %q, 2 -> %q, disruptions ignored %v", actions[1], actions[2], ignoresDisruption)
	}
	if _, retried := actions[5]; retried {
		t.Error("exit 5 (could not run) must be counted and retried, not matched")
	}
	checkVolumes(t, "replay", &s.Template.Spec, pvcs)

	mc := merge.Spec.Template.Spec.Containers
	if len(mc) != 1 || strings.Join(mc[0].Command, " ") != "/geodisaster" || mc[0].Args[0] != "merge" {
		t.Fatalf("merge Job container %+v", mc)
	}
	var shards []string
	for _, a := range mc[0].Args[1:] {
		if !strings.HasPrefix(a, "--") {
			shards = append(shards, a)
		}
	}
	out, _ := flagValue(c[0].Args, "output-dir")
	for i := 0; i < n; i++ {
		if want := strings.ReplaceAll(out, "{shard}", strconv.Itoa(i)); !slices.Contains(shards, want) {
			t.Errorf("the merge Job does not name shard directory %s", want)
		}
	}
	if len(shards) != n {
		t.Errorf("the merge Job names %d shard directories, the replay Job has %d indexes", len(shards), n)
	}
	if in, _ := flagValue(c[0].Args, "input"); func() string { v, _ := flagValue(mc[0].Args, "input"); return v }() != in {
		t.Error("the merge Job's --input is not the replay Job's")
	}
	checkVolumes(t, "merge", &merge.Spec.Template.Spec, pvcs)

	// The CLI accepts both commands' flags.
	bin := clitest.Build(t)
	for _, args := range [][]string{c[0].Args, mc[0].Args} {
		flags := slices.DeleteFunc(append([]string(nil), args[1:]...), func(a string) bool { return !strings.HasPrefix(a, "--") })
		cmd := exec.Command(bin, append(append([]string{args[0]}, flags...), "--help")...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("geodisaster %s %v --help: %v\n%s", args[0], flags, err, b)
		}
	}
}

// checkVolumes requires the release volume read-only and every claim to
// be one of the PVCs.
func checkVolumes(t *testing.T, name string, spec *corev1.PodSpec, pvcs map[string]*corev1.PersistentVolumeClaim) {
	t.Helper()
	if spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("%s: restartPolicy %q (a podFailurePolicy needs Never)", name, spec.RestartPolicy)
	}
	claims := map[string]string{}
	for _, v := range spec.Volumes {
		if v.PersistentVolumeClaim != nil {
			if pvcs[v.PersistentVolumeClaim.ClaimName] == nil {
				t.Errorf("%s: claim %s is not in pvc.yaml", name, v.PersistentVolumeClaim.ClaimName)
			}
			claims[v.Name] = v.PersistentVolumeClaim.ClaimName
		}
	}
	for _, m := range spec.Containers[0].VolumeMounts {
		if claims[m.Name] == "geodisaster-release" && !m.ReadOnly {
			t.Errorf("%s: the release is mounted read-write", name)
		}
	}
}
