package sel

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// decide is a placeholder until the table walk lands: pin, then last resort.
func (o *Op) decide(ctx context.Context, dt DType, k Key, d *Device) (Choice, error) {
	pin := ""
	if s := scopedPin(ctx, o.spec.Name); s != nil {
		pin = s.pin
	} else {
		pin = os.Getenv("BATCHLAS_" + strings.ToUpper(o.spec.Name) + "_ROUTE")
	}
	pin = strings.ToLower(strings.TrimSpace(pin))
	if pin != "" && pin != "auto" && pin != "native" && pin != "vendor" {
		c, err := o.ParseChoice(pin)
		if err != nil || !o.IsCandidate(dt, c) || !o.CanRun(c, k, d) {
			return Choice{}, fmt.Errorf("%s: bad pin %q", o.spec.Name, pin)
		}
		return c, nil
	}
	for _, fam := range o.spec.LastResort {
		for _, c := range o.spec.Candidates[dt] {
			if c.fam.Name == fam && (pin != "native" || !c.Vendor()) && o.CanRun(c, k, d) {
				return c, nil
			}
		}
	}
	for _, c := range o.spec.Candidates[dt] {
		if (pin != "native" || !c.Vendor()) && o.CanRun(c, k, d) {
			return c, nil
		}
	}
	return Choice{}, fmt.Errorf("%s: no route", o.spec.Name)
}
