package workers

import "slices"

// Family names the five question-type families.
type Family string

// The question-type families of the benchmark.
const (
	Deforestation Family = "deforestation"
	MultiHazard   Family = "multi_hazard"
	XBD           Family = "xbd"
	Routing       Family = "routing"
	Sen1Flood     Family = "sen1_flood"
)

// QuestionType is one of the 43 logical question types.
type QuestionType struct {
	// Number is the type's position in the specification (1..43).
	Number int
	// ID is the stable question_type id used in records.
	ID string
	// Family is the family the type belongs to.
	Family Family
}

// questionTypes lists the 43 types in specification order.
var questionTypes = [...]QuestionType{
	{1, "forest_loss_detection", Deforestation},
	{2, "area_estimation", Deforestation},
	{3, "change_window_estimation", Deforestation},
	{4, "false_positive_rejection", Deforestation},
	{5, "baseline_canopy_assessment", Deforestation},
	{6, "multi_year_loss_attribution", Deforestation},
	{7, "cross_modal_concordance", Deforestation},
	{8, "severity_proxy_numeric", Deforestation},
	{9, "wildfire_a", MultiHazard},
	{10, "wildfire_b", MultiHazard},
	{11, "wildfire_c", MultiHazard},
	{12, "wildfire_d", MultiHazard},
	{13, "hazard_deforestation_a", MultiHazard},
	{14, "hazard_deforestation_b", MultiHazard},
	{15, "hazard_deforestation_c", MultiHazard},
	{16, "hazard_deforestation_d", MultiHazard},
	{17, "urban_expansion_a", MultiHazard},
	{18, "urban_expansion_b", MultiHazard},
	{19, "urban_expansion_c", MultiHazard},
	{20, "urban_expansion_d", MultiHazard},
	{21, "drought_a", MultiHazard},
	{22, "drought_b", MultiHazard},
	{23, "drought_c", MultiHazard},
	{24, "drought_d", MultiHazard},
	{25, "air_pollution_a", MultiHazard},
	{26, "air_pollution_b", MultiHazard},
	{27, "air_pollution_c", MultiHazard},
	{28, "air_pollution_d", MultiHazard},
	{29, "xbd_q1", XBD},
	{30, "xbd_q2", XBD},
	{31, "xbd_q3", XBD},
	{32, "xbd_q4", XBD},
	{33, "xbd_q5", XBD},
	{34, "xbd_q7", XBD},
	{35, "xbd_q8", XBD},
	{36, "nearest_shelter", Routing},
	{37, "fastest_safest", Routing},
	{38, "visual_overlay", Routing},
	{39, "sen1_flood_a", Sen1Flood},
	{40, "sen1_flood_b", Sen1Flood},
	{41, "sen1_flood_c", Sen1Flood},
	{42, "sen1_flood_d", Sen1Flood},
	{43, "sen1_flood_e", Sen1Flood},
}

// QuestionTypes returns the 43 question types in specification order.
func QuestionTypes() []QuestionType { return slices.Clone(questionTypes[:]) }

// LookupQuestionType returns the type with the given id.
func LookupQuestionType(id string) (QuestionType, bool) {
	return find(questionTypes[:], func(q QuestionType) bool { return q.ID == id })
}

// Families returns the five families in specification order.
func Families() []Family {
	return []Family{Deforestation, MultiHazard, XBD, Routing, Sen1Flood}
}
