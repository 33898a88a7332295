package workers

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// Role is the multi-agent specialist that owns a worker (spec section 3).
type Role string

// The three specialist roles.
const (
	RoleGA  Role = "GA"
	RolePA  Role = "PA"
	RoleVRA Role = "VRA"
)

// ToolInfo describes one of the 18 workers.
type ToolInfo struct {
	// Name is the tool name, such as "ComputeStats".
	Name string
	// Role is the specialist that owns it.
	Role Role
	// Output is the default output handle prefix.
	Output string
	// Keys are the discriminating arguments that select a variant; the
	// first one present in a call decides. A call with none of them selects
	// the tool's default variant (Value ""), if it has one.
	Keys []string
}

// tools lists the 18 workers with their owner (spec section 3's role table),
// default output prefix and discriminating argument.
var tools = [...]ToolInfo{
	{"ReadData", RoleGA, "scene", []string{"role"}},
	{"PrepareScene", RoleGA, "work", []string{"mode"}},
	{"MeasureArea", RoleGA, "area", []string{"target"}},
	{"ExtractObjects", RoleGA, "objects", []string{"target"}},
	{"MapFlood", RoleGA, "flood", []string{"method"}},
	{"RenderMap", RoleGA, "render", []string{"style"}},
	{"ComputeStats", RolePA, "stats", []string{"metrics"}},
	{"CompareSources", RolePA, "compare", []string{"criterion", "metric"}},
	{"DetectChange", RolePA, "change", []string{"change"}},
	{"ClassifyChange", RolePA, "class", []string{"rule"}},
	{"ScoreHazard", RolePA, "score", []string{"scale"}},
	{"EstimateExposure", RolePA, "exposure", []string{"exposure"}},
	{"RankRegions", RolePA, "rank", []string{"by"}},
	{"PlanRoutes", RolePA, "routes", []string{"objective"}},
	{"CompareRoutes", RolePA, "route_compare", []string{"objectives"}},
	{"AssessDamage", RoleVRA, "damage", []string{"aggregation"}},
	{"DescribeFlood", RoleVRA, "flood_report", []string{"metrics"}},
	{"CompareScenes", RoleVRA, "scene_compare", []string{"by"}},
}

// Tools returns the 18 workers in a stable order.
func Tools() []ToolInfo { return slices.Clone(tools[:]) }

// LookupTool returns the tool with the given name.
func LookupTool(name string) (ToolInfo, bool) {
	return find(tools[:], func(t ToolInfo) bool { return t.Name == name })
}

// find returns the first element of s that match accepts.
func find[T any](s []T, match func(T) bool) (T, bool) {
	if i := slices.IndexFunc(s, match); i >= 0 {
		return s[i], true
	}
	var zero T
	return zero, false
}

// ParamKind is the JSON shape of an argument.
type ParamKind int

// Argument shapes.
const (
	// KindHandle is a handle name (a string naming an existing handle).
	KindHandle ParamKind = iota
	// KindString is a string, optionally restricted to Enum.
	KindString
	// KindNumber is a finite JSON number.
	KindNumber
	// KindInteger is a JSON number with an integral value.
	KindInteger
	// KindBool is a JSON boolean.
	KindBool
	// KindHandleMap is an object mapping slot names (Enum) to handle names.
	KindHandleMap
	// KindFlags is an object of name -> true flags (Enum lists the names).
	KindFlags
	// KindObject is any JSON object.
	KindObject
	// KindStringList is an array of strings (optionally restricted to Enum).
	KindStringList
	// KindAny is any JSON value.
	KindAny
)

// String returns the JSON Schema type name of the kind.
func (k ParamKind) String() string {
	switch k {
	case KindHandle, KindString:
		return "string"
	case KindNumber:
		return "number"
	case KindInteger:
		return "integer"
	case KindBool:
		return "boolean"
	case KindHandleMap, KindFlags, KindObject:
		return "object"
	case KindStringList:
		return "array"
	}
	return "any"
}

// Param declares one argument of a variant.
type Param struct {
	Name     string
	Kind     ParamKind
	Required bool
	// Enum restricts strings, flag names, handle-map slots or list items.
	Enum []string
	// Doc is a one-line description for tool schemas.
	Doc string
}

// Variant is one behaviour of a tool, selected by the value of the tool's
// discriminating argument (for KindFlags keys: the sorted true flag names
// joined by "+"). Value "" is the default variant, used when a call names
// none of the tool's keys.
type Variant struct {
	Tool  string
	Value string
	// Output overrides the tool's default output prefix when set.
	Output string
	Params []Param
	Run    func(env Env, args Args) (*Result, error)
}

// ArgError reports an invalid call argument.
type ArgError struct {
	Tool string
	Arg  string
	Msg  string
}

func (e *ArgError) Error() string {
	if e.Arg == "" {
		return fmt.Sprintf("%s: %s", e.Tool, e.Msg)
	}
	return fmt.Sprintf("%s: argument %q: %s", e.Tool, e.Arg, e.Msg)
}

// Registry holds every tool variant.
type Registry struct {
	variants map[string]map[string]*Variant // tool -> value -> variant
}

// NewRegistry returns a registry with the variants of every family in
// fams (package workers/families lists the benchmark's).
func NewRegistry(fams []FamilyDef) (*Registry, error) {
	r := &Registry{variants: map[string]map[string]*Variant{}}
	for _, f := range fams {
		vs := f.Variants()
		for i := range vs {
			if err := r.add(&vs[i]); err != nil {
				return nil, err
			}
		}
	}
	return r, nil
}

func (r *Registry) add(v *Variant) error {
	info, ok := LookupTool(v.Tool)
	if !ok {
		return fmt.Errorf("workers: variant for unknown tool %q", v.Tool)
	}
	if v.Run == nil {
		return fmt.Errorf("workers: %s variant %q has no Run", v.Tool, v.Value)
	}
	found := v.Value == ""
	for _, p := range v.Params {
		if InEnum(info.Keys, p.Name) {
			found = true
		}
	}
	if !found {
		return fmt.Errorf("workers: %s variant %q declares none of the keys %v", v.Tool, v.Value, info.Keys)
	}
	m := r.variants[v.Tool]
	if m == nil {
		m = map[string]*Variant{}
		r.variants[v.Tool] = m
	}
	if _, dup := m[v.Value]; dup {
		return fmt.Errorf("workers: duplicate %s variant %q", v.Tool, v.Value)
	}
	m[v.Value] = v
	return nil
}

// Values returns the accepted values of a tool's discriminating argument.
func (r *Registry) Values(tool string) []string {
	var out []string
	for v := range r.variants[tool] {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// Variants returns every variant of a tool, sorted by value.
func (r *Registry) Variants(tool string) []*Variant {
	var out []*Variant
	for _, v := range r.Values(tool) {
		out = append(out, r.variants[tool][v])
	}
	return out
}

// Resolve validates a call's arguments and returns its variant and parsed
// arguments. Unknown tools, arguments and values are errors that name what
// is allowed.
func (r *Registry) Resolve(tool string, raw map[string]any) (*Variant, Args, error) {
	info, ok := LookupTool(tool)
	if !ok {
		names := make([]string, 0, len(tools))
		for _, t := range tools {
			names = append(names, t.Name)
		}
		return nil, Args{}, &ArgError{Tool: tool, Msg: "unknown tool (allowed: " + strings.Join(names, ", ") + ")"}
	}
	key, sel := "", ""
	for _, k := range info.Keys {
		if kv, present := raw[k]; present {
			s, err := discriminant(kv)
			if err != nil {
				return nil, Args{}, &ArgError{Tool: tool, Arg: k, Msg: err.Error()}
			}
			key, sel = k, s
			break
		}
	}
	v, ok := r.variants[tool][sel]
	if !ok {
		if key == "" {
			return nil, Args{}, &ArgError{Tool: tool, Arg: info.Keys[0], Msg: "required argument missing (allowed values: " + strings.Join(r.Values(tool), ", ") + ")"}
		}
		return nil, Args{}, &ArgError{Tool: tool, Arg: key, Msg: fmt.Sprintf("unsupported value %q (allowed: %s)", sel, strings.Join(r.Values(tool), ", "))}
	}
	args, err := validate(v, raw)
	if err != nil {
		return nil, Args{}, err
	}
	return v, args, nil
}

// discriminant turns the key argument into the variant selector.
func discriminant(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case map[string]any:
		var keys []string
		for k, val := range x {
			b, ok := val.(bool)
			if !ok {
				return "", fmt.Errorf("flag %q must be true, got %s", k, JSONText(val))
			}
			if b {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			return "", errors.New("no flag is set to true")
		}
		sort.Strings(keys)
		return strings.Join(keys, "+"), nil
	}
	return "", fmt.Errorf("must be a string or an object of true flags, got %s", JSONText(v))
}

func validate(v *Variant, raw map[string]any) (Args, error) {
	params := map[string]Param{}
	var names []string
	for _, p := range v.Params {
		params[p.Name] = p
		names = append(names, p.Name)
	}
	// The specification writes the causal input handle both positionally
	// (our "input") and as work=... (e.g. AssessDamage(work=objects_1, ...)).
	// A variant that declares only "input" accepts "work" as its alias.
	if w, ok := raw["work"]; ok {
		_, declaresWork := params["work"]
		_, declaresInput := params["input"]
		if !declaresWork && declaresInput {
			if _, both := raw["input"]; both {
				return Args{}, &ArgError{Tool: v.Tool, Arg: "work", Msg: "give the input handle once, as input or as work"}
			}
			aliased := make(map[string]any, len(raw))
			for k, val := range raw {
				aliased[k] = val
			}
			delete(aliased, "work")
			aliased["input"] = w
			raw = aliased
		}
	}
	sort.Strings(names)
	for k := range raw {
		if _, ok := params[k]; !ok {
			return Args{}, &ArgError{Tool: v.Tool, Arg: k, Msg: "unknown argument for " + v.Value + " (allowed: " + strings.Join(names, ", ") + ")"}
		}
	}
	for _, p := range v.Params {
		val, ok := raw[p.Name]
		if !ok {
			if p.Required {
				return Args{}, &ArgError{Tool: v.Tool, Arg: p.Name, Msg: "required argument missing"}
			}
			continue
		}
		if err := checkParam(p, val); err != nil {
			return Args{}, &ArgError{Tool: v.Tool, Arg: p.Name, Msg: err.Error()}
		}
	}
	return Args{tool: v.Tool, m: raw}, nil
}

// InEnum reports whether s is one of enum.
func InEnum(enum []string, s string) bool {
	if len(enum) == 0 {
		return true
	}
	for _, e := range enum {
		if e == s {
			return true
		}
	}
	return false
}

func checkParam(p Param, val any) error {
	allowed := func() string { return " (allowed: " + strings.Join(p.Enum, ", ") + ")" }
	switch p.Kind {
	case KindHandle:
		s, ok := val.(string)
		if !ok || s == "" {
			return fmt.Errorf("must be a handle name, got %s", JSONText(val))
		}
	case KindString:
		s, ok := val.(string)
		if !ok {
			return fmt.Errorf("must be a string, got %s", JSONText(val))
		}
		if !InEnum(p.Enum, s) {
			return fmt.Errorf("unsupported value %q%s", s, allowed())
		}
	case KindNumber, KindInteger:
		f, ok := val.(float64)
		if !ok {
			return fmt.Errorf("must be a number, got %s", JSONText(val))
		}
		if !Finite(f) {
			return errors.New("must be finite")
		}
		if p.Kind == KindInteger && f != math.Trunc(f) {
			return fmt.Errorf("must be an integer, got %v", f)
		}
	case KindBool:
		if _, ok := val.(bool); !ok {
			return fmt.Errorf("must be a boolean, got %s", JSONText(val))
		}
	case KindHandleMap:
		m, ok := val.(map[string]any)
		if !ok || len(m) == 0 {
			return fmt.Errorf("must be a non-empty object of slot: handle, got %s", JSONText(val))
		}
		for slot, h := range m {
			if !InEnum(p.Enum, slot) {
				return fmt.Errorf("unsupported slot %q%s", slot, allowed())
			}
			if s, ok := h.(string); !ok || s == "" {
				return fmt.Errorf("slot %q must name a handle, got %s", slot, JSONText(h))
			}
		}
	case KindFlags:
		m, ok := val.(map[string]any)
		if !ok {
			return fmt.Errorf("must be an object of flags, got %s", JSONText(val))
		}
		for k, f := range m {
			if !InEnum(p.Enum, k) {
				return fmt.Errorf("unsupported flag %q%s", k, allowed())
			}
			if _, ok := f.(bool); !ok {
				return fmt.Errorf("flag %q must be a boolean", k)
			}
		}
	case KindObject:
		if _, ok := val.(map[string]any); !ok {
			return fmt.Errorf("must be an object, got %s", JSONText(val))
		}
	case KindStringList:
		l, ok := val.([]any)
		if !ok {
			return fmt.Errorf("must be an array of strings, got %s", JSONText(val))
		}
		for _, it := range l {
			s, ok := it.(string)
			if !ok {
				return fmt.Errorf("must be an array of strings, got item %s", JSONText(it))
			}
			if !InEnum(p.Enum, s) {
				return fmt.Errorf("unsupported item %q%s", s, allowed())
			}
		}
	}
	return nil
}

func JSONText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	if len(b) > 80 {
		b = append(b[:77], "..."...)
	}
	return string(b)
}

// Args are a call's validated arguments.
type Args struct {
	tool string
	m    map[string]any
}

// Has reports whether the argument is present.
func (a Args) Has(name string) bool { _, ok := a.m[name]; return ok }

// String returns a string argument ("" when absent).
func (a Args) String(name string) string { s, _ := a.m[name].(string); return s }

// Number returns a numeric argument and whether it was present.
func (a Args) Number(name string) (float64, bool) { f, ok := a.m[name].(float64); return f, ok }

// Bool returns a boolean argument (false when absent).
func (a Args) Bool(name string) bool { b, _ := a.m[name].(bool); return b }

// Object returns an object argument (nil when absent).
func (a Args) Object(name string) map[string]any { o, _ := a.m[name].(map[string]any); return o }

// HandleMap returns a slot -> handle name argument.
func (a Args) HandleMap(name string) map[string]string {
	out := map[string]string{}
	for k, v := range a.Object(name) {
		out[k], _ = v.(string)
	}
	return out
}

// Strings returns a string-list argument.
func (a Args) Strings(name string) []string {
	l, _ := a.m[name].([]any)
	out := make([]string, 0, len(l))
	for _, it := range l {
		s, _ := it.(string)
		out = append(out, s)
	}
	return out
}

// Raw returns an argument as decoded from JSON.
func (a Args) Raw(name string) (any, bool) { v, ok := a.m[name]; return v, ok }

// Errorf returns an ArgError for this call.
func (a Args) Errorf(arg, format string, v ...any) error {
	return &ArgError{Tool: a.tool, Arg: arg, Msg: fmt.Sprintf(format, v...)}
}

// Map returns a copy of the raw arguments.
func (a Args) Map() map[string]any {
	out := make(map[string]any, len(a.m))
	for k, v := range a.m {
		out[k] = v
	}
	return out
}

// Input declares the required "input" argument: the handle of the result
// the variant consumes (doc names it, e.g. "work handle from
// PrepareScene(mode=baseline_canopy)").
func Input(doc string) Param {
	return Param{Name: "input", Kind: KindHandle, Required: true, Doc: doc}
}

// Choice declares a required string argument that takes one of values.
func Choice(name string, values ...string) Param {
	return Param{Name: name, Kind: KindString, Required: true, Enum: values}
}

// Flags declares a required object of true flags named from names, such
// as metrics={treecover_mean_pct: true}.
func Flags(name string, names ...string) Param {
	return Param{Name: name, Kind: KindFlags, Required: true, Enum: names}
}

// NewVariant declares a variant of tool that takes params in the order given
// (the order tool schemas and descriptions list them). Its Value is the
// one allowed value of the param named by one of the tool's
// discriminating keys (a one-value Choice or a one-flag Flags); with no
// such param it is the tool's default variant.
func NewVariant(tool string, run func(env Env, args Args) (*Result, error), params ...Param) Variant {
	v := Variant{Tool: tool, Params: params, Run: run}
	info, _ := LookupTool(tool)
	for _, p := range params {
		if slices.Contains(info.Keys, p.Name) && len(p.Enum) == 1 {
			v.Value = p.Enum[0]
			break
		}
	}
	return v
}

// Then returns v with next run after each successful call of v's Run, on
// the same environment, arguments and result: next may add evidence or
// artifacts to the result, check it further, or fail the call.
func (v Variant) Then(next func(env Env, a Args, r *Result) (*Result, error)) Variant {
	run := v.Run
	v.Run = func(env Env, a Args) (*Result, error) {
		r, err := run(env, a)
		if err != nil {
			return nil, err
		}
		return next(env, a, r)
	}
	return v
}

// ArgsOf wraps arguments that are already valid for tool, for callers
// (tests, composite workers) that run a variant directly; Registry.Resolve
// is the validating path.
func ArgsOf(tool string, m map[string]any) Args { return Args{tool: tool, m: m} }
