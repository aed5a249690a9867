from django.urls import path
from rest_framework.routers import DefaultRouter

from . import admin_views, views

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
# departments and roles before users: the user detail route ("<pk>/") would otherwise swallow them.
router.register("departments", admin_views.DepartmentViewSet, basename="department")
router.register("roles", admin_views.RoleViewSet, basename="role")
router.register("", admin_views.UserViewSet, basename="user")

urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("refresh/", views.RefreshView.as_view(), name="token-refresh"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("me/", views.MeView.as_view(), name="me"),
    path("me/change-password/", views.ChangePasswordView.as_view(), name="me-change-password"),
    *router.urls,
]
