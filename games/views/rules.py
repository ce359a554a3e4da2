"""The rules pages: /rules/ lists the variants and presets, /rules/<variant>/ explains a variant (every preset's
numbers side by side) and /rules/<variant>/<preset>/ the same with that preset's numbers. Public, no database."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games import rules_pages


def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/index.html", {"variants": rules_pages.variants()})


def rules_variant(request: HttpRequest, variant: str, preset: str | None = None) -> HttpResponse:
    try:
        context = rules_pages.page(variant, preset)
    except rules_pages.UnknownRules as exc:
        raise Http404(str(exc)) from None
    return render(request, "rules/page.html", context)
