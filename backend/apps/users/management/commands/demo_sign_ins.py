from django.core.management.base import BaseCommand

from apps.users.demo import DEMO_PASSWORD, DEMO_SIGN_INS


class Command(BaseCommand):
    help = "Print the demo sign-ins."

    def handle(self, *args, **options):
        self.stdout.write(f"Demo sign-ins (password {DEMO_PASSWORD}):")
        for username, what in DEMO_SIGN_INS:
            self.stdout.write(f"  {username:<10} {what}")
