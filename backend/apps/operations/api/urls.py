from django.urls import path

from . import views

urlpatterns = [
    path("live/", views.LiveView.as_view(), name="health-live"),
    path("ready/", views.ReadyView.as_view(), name="health-ready"),
]
