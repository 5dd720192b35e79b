package subresources

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The roots are runtime.Objects so that upstream's generated RegisterValidations can register them.

func (w *Widget) GetObjectKind() schema.ObjectKind { return schema.EmptyObjectKind }
func (w *Widget) DeepCopyObject() runtime.Object   { c := *w; return &c }

func (w *WidgetStatus) GetObjectKind() schema.ObjectKind { return schema.EmptyObjectKind }
func (w *WidgetStatus) DeepCopyObject() runtime.Object   { c := *w; return &c }

func (p *Plain) GetObjectKind() schema.ObjectKind { return schema.EmptyObjectKind }
func (p *Plain) DeepCopyObject() runtime.Object   { c := *p; return &c }
