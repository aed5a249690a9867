from django.urls import path

from . import views

deliveries = views.DeliveryDueDiligenceViewSet
concerns = views.ConcernViewSet

urlpatterns = [
    path("deliveries/<int:pk>/", deliveries.as_view({"get": "overview"}), name="dd-delivery"),
    path("deliveries/<int:pk>/audit/", deliveries.as_view({"get": "audit"}), name="dd-delivery-audit"),
    path(
        "deliveries/<int:pk>/assessments/", deliveries.as_view({"post": "assess"}), name="dd-delivery-assess"
    ),
    path(
        "deliveries/<int:pk>/override/", deliveries.as_view({"post": "override"}), name="dd-delivery-override"
    ),
    path("deliveries/<int:pk>/archive/", deliveries.as_view({"post": "archive"}), name="dd-delivery-archive"),
    path(
        "deliveries/<int:pk>/void-statement/",
        deliveries.as_view({"post": "void_statement"}),
        name="dd-delivery-void-statement",
    ),
    path(
        "statements/<int:pk>/audit/",
        views.StatementAuditViewSet.as_view({"get": "audit"}),
        name="dd-statement-audit",
    ),
    path(
        "assessments/",
        views.AssessmentViewSet.as_view({"get": "list", "post": "create"}),
        name="dd-assessments",
    ),
    path("concerns/", concerns.as_view({"get": "list", "post": "create"}), name="dd-concerns"),
    path("concerns/<int:pk>/resolve/", concerns.as_view({"post": "resolve"}), name="dd-concern-resolve"),
    path(
        "deliveries/<int:pk>/forest/<int:result_id>/map/",
        deliveries.as_view({"get": "forest_map"}),
        name="dd-delivery-forest-map",
    ),
    path("annual-report/", views.AnnualReportViewSet.as_view({"get": "retrieve"}), name="dd-annual-report"),
    path(
        "annual-report/figures/",
        views.AnnualReportViewSet.as_view({"get": "figures"}),
        name="dd-annual-figures",
    ),
    path(
        "forest-layers/",
        views.ForestLayerViewSet.as_view({"get": "list", "post": "create"}),
        name="dd-forest-layers",
    ),
    path(
        "forest-layers/<int:pk>/",
        views.ForestLayerViewSet.as_view({"get": "retrieve", "delete": "destroy"}),
        name="dd-forest-layer",
    ),
    path(
        "forest-layers/<int:pk>/process-again/",
        views.ForestLayerViewSet.as_view({"post": "process_again"}),
        name="dd-forest-layer-process-again",
    ),
    path("benchmark/", views.BenchmarkViewSet.as_view({"get": "retrieve"}), name="dd-benchmark"),
]
