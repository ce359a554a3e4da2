"""The error summary at the top of a refused form (templates/_form_errors.html): each field's errors, linked to it."""

from typing import Any

from django import template

register = template.Library()


@register.simple_tag
def field_error_rows(
    form: Any, formset: Any = None, formset_label: str = "", hidden_anchor: str = ""
) -> list[dict[str, Any]]:
    """One row per field with errors, in the form's order, then each form of the formset (labelled with its
    number, as its fieldset's legend is): the id to link to, the label and the messages. A hidden field's
    errors (a result's seats, shown beside its balance) link to `hidden_anchor` when the page gives one."""
    rows = []
    if hasattr(form, "visible_fields"):
        rows += [_row(field, str(field.label)) for field in form.visible_fields() if field.errors]
        if isinstance(hidden_anchor, str) and hidden_anchor:
            rows += [
                {"id": hidden_anchor, "label": str(field.label), "errors": list(field.errors)}
                for field in form.hidden_fields()
                if field.errors
            ]
    if hasattr(formset, "forms"):  # an unset template variable is a string
        for number, subform in enumerate(formset.forms, start=1):
            for field in subform.visible_fields():
                if field.errors:
                    rows.append(_row(field, f"{formset_label} {number}: {field.label}".strip()))
    return rows


def _row(field: Any, label: str) -> dict[str, Any]:
    # A group of radios has no one input to label: the link goes to its fieldset (id auto_id, _field.html).
    return {"id": field.id_for_label or field.auto_id, "label": label, "errors": list(field.errors)}
